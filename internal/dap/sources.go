package dap

import (
	"errors"
	"net/url"
	"path/filepath"
	"strings"

	godap "github.com/google/go-dap"

	"traced/api"
	"traced/internal/apiclient"
)

// source is the DAP source of a position: a local file by its path; a script without one
// (node's own, eval'd code) by a sourceReference the source request reads through the API.
func (s *Server) source(f api.Frame) *godap.Source {
	if f.File != "" {
		p := s.absPath(f.File)
		src := &godap.Source{Name: filepath.Base(p), Path: p}
		if f.Internal {
			src.PresentationHint = "deemphasize"
		}
		return src
	}
	if f.URL == "" {
		return nil
	}
	src := &godap.Source{Name: f.URL, SourceReference: s.sourceRef(f.URL), Origin: "read through traced"}
	if f.Internal {
		src.PresentationHint = "deemphasize"
	}
	return src
}

// sourceRef is the sourceReference of a script URL, handed out once per URL.
func (s *Server) sourceRef(u string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, v := range s.st.sourceURLs {
		if v == u {
			return i + 1
		}
	}
	s.st.sourceURLs = append(s.st.sourceURLs, u)
	return len(s.st.sourceURLs)
}

// onLoadedSources lists the user's scripts and the original sources their maps name.
func (s *Server) onLoadedSources(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.LoadedSourcesRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	var sr api.ScriptsResponse
	if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "scripts"), nil, nil, &sr); err != nil {
		return nil, err
	}
	out := []godap.Source{}
	for _, sc := range sr.Scripts {
		if src := s.source(api.Frame{File: sc.File, URL: sc.URL, Internal: sc.Internal}); src != nil {
			out = append(out, *src)
		}
		for _, o := range sc.Sources {
			p := o
			if u, err := url.Parse(o); err == nil && u.Scheme == "file" {
				p = u.Path
			}
			if filepath.IsAbs(p) {
				out = append(out, godap.Source{Name: filepath.Base(p), Path: p, Origin: "source map of " + filepath.Base(sc.File)})
			}
		}
	}
	return &godap.LoadedSourcesResponse{Response: response(&r.Request), Body: godap.LoadedSourcesResponseBody{Sources: out}}, nil
}

// onSource answers a script's text: by sourceReference or path, through the API's source route.
func (s *Server) onSource(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.SourceRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	file := ""
	ref := r.Arguments.SourceReference
	if r.Arguments.Source != nil && r.Arguments.Source.SourceReference > 0 {
		ref = r.Arguments.Source.SourceReference
	}
	s.mu.Lock()
	if ref > 0 && ref <= len(s.st.sourceURLs) {
		file = s.st.sourceURLs[ref-1]
	}
	s.mu.Unlock()
	if file == "" && r.Arguments.Source != nil {
		file = r.Arguments.Source.Path
	}
	if file == "" {
		return nil, errors.New("source: no such sourceReference or path")
	}
	var v api.SourceView
	if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "source"), url.Values{"file": {file}, "all": {"true"}}, nil, &v); err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, l := range v.Lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return &godap.SourceResponse{Response: response(&r.Request), Body: godap.SourceResponseBody{Content: b.String()}}, nil
}
