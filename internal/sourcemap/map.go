package sourcemap

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	gosourcemap "github.com/go-sourcemap/sourcemap"
)

// Pos is a position in a file: 1-based Line and 1-based Column, as people read them.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// FromCDP converts a 0-based CDP position (Debugger.Location's lineNumber, columnNumber) to a Pos.
func FromCDP(line0, col0 int) Pos { return Pos{Line: line0 + 1, Column: col0 + 1} }

// CDP returns p as the 0-based line and column the CDP expects.
func (p Pos) CDP() (line0, col0 int) { return p.Line - 1, p.Column - 1 }

// String formats p as "line:column".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column) }

// Original is the original position of a piece of generated code.
type Original struct {
	Source string `json:"source"` // as [Map.Sources] names it
	Pos
	Name string `json:"name,omitempty"` // the original identifier, when the map names one
}

// Map is one loaded source map with its reverse index. It is immutable once made, so any number
// of goroutines may use it at once.
type Map struct {
	url      string   // the URL sources were resolved against: the map's, or the script's if inline
	file     string   // the map's "file", the generated file's name
	parts    []part   // one per section (one for a plain map), sorted by offset
	sources  []string // public source names, unique, in the map's order
	index    map[string]int32
	contents []*string // by public source index; nil where the map carries no content
	rev      []revEntry
	size     int64
}

// part is one section of an indexed map (or the whole of a plain one): the library's consumer
// for it and where its generated positions start and stop in the generated file.
type part struct {
	line0, col0 int32 // offset of the section in the generated file, 0-based
	consumer    *gosourcemap.Consumer
	pub         map[string]int32 // library source name -> public source index
}

// revEntry is one reverse index entry, 0-based. The index is sorted by (src, line, genLine,
// genCol), so one original line's generated locations are one contiguous, ordered run.
type revEntry struct {
	src, line       int32
	genLine, genCol int32
}

// rawMap is the part of a source map's JSON this package reads itself; the library reads the rest.
type rawMap struct {
	Version        int          `json:"version"`
	File           string       `json:"file"`
	SourceRoot     string       `json:"sourceRoot"`
	Sources        []string     `json:"sources"`
	SourcesContent []*string    `json:"sourcesContent"`
	Mappings       string       `json:"mappings"`
	Sections       []rawSection `json:"sections"`
	// Names is only passed on to the library, which names a mapping's identifier with it.
	Names json.RawMessage `json:"names"`
}

type rawSection struct {
	Offset struct {
		Line   int32 `json:"line"`
		Column int32 `json:"column"`
	} `json:"offset"`
	Map json.RawMessage `json:"map"`
	URL string          `json:"url"`
}

// maxPos is the largest 0-based line or column this package indexes or looks up: positions are
// int32 inside, as in the library.
const maxPos = 1<<31 - 1

// noEnd is the end of the last section: past every position.
const noEnd = maxPos + 1

// Parse makes a Map from a source map's bytes. mapURL is where the map came from (a file://
// URL), or the script's URL for an inline map: relative source names resolve against its
// directory. An error wraps [ErrInvalid] and says what is wrong.
func Parse(mapURL string, data []byte) (*Map, error) {
	var raw rawMap
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, invalid("%v", err)
	}
	m := &Map{url: mapURL, file: raw.File, index: make(map[string]int32), size: int64(len(data))}
	var ix indexer
	base := fileURL(mapURL)
	if len(raw.Sections) == 0 {
		if err := m.addPart(&ix, mapURL, base, 0, 0, noEnd, 0, &raw); err != nil {
			return nil, err
		}
		if m.parts[0].consumer == nil {
			return nil, invalid("map has no mappings")
		}
	} else {
		if err := m.addSections(&ix, mapURL, base, raw.Sections); err != nil {
			return nil, err
		}
	}
	m.rev = ix.sorted(len(m.sources))
	if ix.unordered {
		// The library's binary search finds only some of the segments of a line out of
		// generated order, and answers for others with the wrong one: keep what it agrees with.
		m.rev = slices.DeleteFunc(m.rev, func(e revEntry) bool {
			o, ok := m.Forward(FromCDP(int(e.genLine), int(e.genCol)))
			return !ok || o.Line != int(e.line)+1 || o.Source != m.sources[e.src]
		})
	}
	m.size += int64(cap(m.rev)) * 16
	return m, nil
}

func (m *Map) addSections(ix *indexer, mapURL string, base *url.URL, sections []rawSection) error {
	for i, s := range sections {
		if s.Map == nil {
			if s.URL != "" {
				return invalid("section %d: sections that point to a url are not supported", i)
			}
			return invalid("section %d has no map", i)
		}
		if s.Offset.Line < 0 || s.Offset.Column < 0 {
			return invalid("section %d: negative offset", i)
		}
		if i > 0 {
			p := sections[i-1].Offset
			if s.Offset.Line < p.Line || (s.Offset.Line == p.Line && s.Offset.Column < p.Column) {
				return invalid("section %d starts before section %d", i, i-1)
			}
		}
		var raw rawMap
		if err := json.Unmarshal(s.Map, &raw); err != nil {
			return invalid("section %d: %v", i, err)
		}
		if len(raw.Sections) > 0 {
			return invalid("section %d: nested sections", i)
		}
		// A segment at or past the next section's start is shadowed: forward lookups pick the
		// later section there.
		endLine, endCol := int64(noEnd), int64(0)
		if i+1 < len(sections) {
			endLine, endCol = int64(sections[i+1].Offset.Line), int64(sections[i+1].Offset.Column)
		}
		if err := m.addPart(ix, mapURL, base, s.Offset.Line, s.Offset.Column, endLine, endCol, &raw); err != nil {
			return fmt.Errorf("section %d: %w", i, err)
		}
	}
	return nil
}

// addPart parses one plain map (a whole map, or a section's) with the library and decodes its
// mappings into the reverse index, keeping those before (endLine, endCol). A part with empty
// mappings is kept without a consumer.
func (m *Map) addPart(ix *indexer, mapURL string, base *url.URL, line0, col0 int32, endLine, endCol int64, raw *rawMap) error {
	p := part{line0: line0, col0: col0, pub: make(map[string]int32, len(raw.Sources))}
	pub := make([]int32, 0, len(raw.Sources)) // section source index -> public source index
	root := libRoot(raw.SourceRoot, mapURL)
	for i, src := range raw.Sources {
		lib := libSourceName(root, raw.SourceRoot, src)
		name := publicName(lib, base)
		id, ok := m.index[name]
		if !ok {
			id = int32(len(m.sources))
			m.index[name] = id
			m.sources = append(m.sources, name)
			m.contents = append(m.contents, nil)
		}
		if m.contents[id] == nil && i < len(raw.SourcesContent) && raw.SourcesContent[i] != nil {
			m.contents[id] = raw.SourcesContent[i]
			m.size += int64(len(*raw.SourcesContent[i]))
		}
		if _, ok := p.pub[lib]; !ok {
			p.pub[lib] = id
		}
		pub = append(pub, id)
	}
	if raw.Mappings != "" {
		if len(raw.Sources) == 0 {
			// The library would index an empty sources list on lookup.
			return invalid("map has mappings but lists no sources")
		}
		// One segment a separator at most: growing by append would copy the entries over and over.
		ix.rev = slices.Grow(ix.rev, strings.Count(raw.Mappings, ",")+strings.Count(raw.Mappings, ";")+1)
		prevLine, prevCol := int32(-1), int32(-1)
		n, err := decodeMappings(raw.Mappings, len(raw.Sources), func(s segment) {
			// The library answers for a generated position with the first segment there, even
			// one that maps to nothing; a later one there would not map back to its own line.
			shadowed := s.genLine == prevLine && s.genCol == prevCol
			if s.genLine == prevLine && s.genCol < prevCol {
				ix.unordered = true
			}
			prevLine, prevCol = s.genLine, s.genCol
			if s.src < 0 || shadowed {
				return
			}
			gl, gc := int64(s.genLine)+int64(line0), int64(s.genCol)
			if s.genLine == 0 {
				gc += int64(col0)
			}
			if gl > maxPos || gc > maxPos {
				return // past any position a Pos, or the CDP, can name
			}
			if gl > endLine || (gl == endLine && gc >= endCol) {
				return
			}
			ix.add(revEntry{src: pub[s.src], line: s.line, genLine: int32(gl), genCol: int32(gc)})
		})
		if err != nil {
			return invalid("%v", err)
		}
		lib, err := libMap(raw)
		if err != nil {
			return invalid("%v", err)
		}
		c, err := gosourcemap.Parse(mapURL, lib)
		if err != nil {
			return invalid("%v", err)
		}
		p.consumer = c
		// What the library keeps: 24 bytes a mapping, those without a source included.
		m.size += int64(n) * 24
	}
	m.parts = append(m.parts, p)
	return nil
}

// libMap is the JSON handed to the library for one plain map: only what its lookups read. The
// library then neither parses nor keeps a second copy of sourcesContent (often most of a map),
// and the mappings string is copied in as it is rather than marshalled again. It must only be
// called once raw.Mappings has decoded, so that it holds nothing but base64 digits, ',' and ';'
// and needs no escaping.
func libMap(raw *rawMap) ([]byte, error) {
	head, err := json.Marshal(struct {
		Version    int             `json:"version"`
		SourceRoot string          `json:"sourceRoot,omitempty"`
		Sources    []string        `json:"sources"`
		Names      json.RawMessage `json:"names,omitempty"`
	}{raw.Version, raw.SourceRoot, raw.Sources, raw.Names})
	if err != nil {
		return nil, err
	}
	const key = `,"mappings":"`
	b := make([]byte, 0, len(head)+len(key)+len(raw.Mappings)+2)
	b = append(b, head[:len(head)-1]...) // without its closing brace
	b = append(b, key...)
	b = append(b, raw.Mappings...)
	return append(b, '"', '}'), nil
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// URL is the URL the map's relative source names were resolved against.
func (m *Map) URL() string { return m.url }

// File is the map's "file" field, the generated file's name ("" when absent).
func (m *Map) File() string { return m.file }

// Size estimates the memory the map holds, in bytes; [Cache] budgets by it.
func (m *Map) Size() int64 { return m.size }

// Sources lists the map's original sources, in the map's order, each once.
func (m *Map) Sources() []string { return slices.Clone(m.sources) }

// SourceContent returns a source's text from the map's sourcesContent; ok is false when the map
// does not carry it (the caller then reads the file).
func (m *Map) SourceContent(source string) (content string, ok bool) {
	id, found := m.index[source]
	if !found || m.contents[id] == nil {
		return "", false
	}
	return *m.contents[id], true
}

// MatchSource returns the sources that name equals, or that end in name at a path boundary: a
// user's "src/app.ts" matches "/work/proj/src/app.ts". An exact match is returned alone.
func (m *Map) MatchSource(name string) []string {
	if _, ok := m.index[name]; ok {
		return []string{name}
	}
	name = strings.TrimPrefix(path.Clean("/"+name), "/")
	if name == "" {
		return nil
	}
	var out []string
	for _, s := range m.sources {
		if s == name || strings.HasSuffix(s, "/"+name) {
			out = append(out, s)
		}
	}
	return out
}

// Forward returns the original position of the generated position gen, as go-sourcemap finds
// it: the mapping at gen, or else the nearest one before it (which may be on an earlier line).
func (m *Map) Forward(gen Pos) (Original, bool) {
	if gen.Line < 1 || gen.Column < 1 || gen.Line > 1<<31 || gen.Column > 1<<31 {
		return Original{}, false
	}
	l0, c0 := int32(gen.Line-1), int32(gen.Column-1)
	// The last part starting at or before gen.
	i := sort.Search(len(m.parts), func(i int) bool {
		p := &m.parts[i]
		return p.line0 > l0 || (p.line0 == l0 && p.col0 > c0)
	}) - 1
	if i < 0 || m.parts[i].consumer == nil {
		return Original{}, false
	}
	p := &m.parts[i]
	rl, rc := l0-p.line0, c0
	if rl == 0 {
		rc -= p.col0 // a section's column offset applies to its first line only
	}
	// The library is 1-based in lines, 0-based in columns, both ways.
	src, name, line, col, ok := p.consumer.Source(int(rl)+1, int(rc))
	if !ok {
		return Original{}, false
	}
	if id, ok := p.pub[src]; ok {
		src = m.sources[id]
	}
	return Original{Source: src, Pos: Pos{Line: line, Column: col + 1}, Name: name}, true
}

// lineRun returns the reverse index entries of source id at 0-based line (possibly none) and
// the index where that line's run starts or would start.
func (m *Map) lineRun(id, line0 int32) (run []revEntry, at int) {
	lo := sort.Search(len(m.rev), func(i int) bool {
		e := &m.rev[i]
		return e.src > id || (e.src == id && e.line >= line0)
	})
	hi := lo
	for hi < len(m.rev) && m.rev[hi].src == id && m.rev[hi].line == line0 {
		hi++
	}
	return m.rev[lo:hi], lo
}

// Reverse returns the generated positions that map to a line of an original source, sorted,
// each once. It is empty when the line has no mapping; [Map.NearestMapped] then helps.
func (m *Map) Reverse(source string, line int) []Pos {
	id, ok := m.index[source]
	if !ok || line < 1 || line > 1<<31 {
		return nil
	}
	run, _ := m.lineRun(id, int32(line-1))
	if len(run) == 0 {
		return nil
	}
	out := make([]Pos, 0, len(run))
	for _, e := range run {
		p := FromCDP(int(e.genLine), int(e.genCol))
		if n := len(out); n == 0 || out[n-1] != p {
			out = append(out, p)
		}
	}
	return out
}

// NearestMapped returns the lines of source nearest to line that have mappings: line itself
// when it has one, else the closest mapped line before it and the closest after it (either may
// be missing), ascending. It is empty when the source has no mapped line at all.
func (m *Map) NearestMapped(source string, line int) []int {
	id, ok := m.index[source]
	if !ok {
		return nil
	}
	line = min(max(line, 1), 1<<31)
	run, at := m.lineRun(id, int32(line-1))
	if len(run) > 0 {
		return []int{line}
	}
	var out []int
	if at > 0 && m.rev[at-1].src == id {
		out = append(out, int(m.rev[at-1].line)+1)
	}
	if at < len(m.rev) && m.rev[at].src == id {
		out = append(out, int(m.rev[at].line)+1)
	}
	return out
}

// MappedLines returns every line of source that has a mapping, ascending.
func (m *Map) MappedLines(source string) []int {
	id, ok := m.index[source]
	if !ok {
		return nil
	}
	var out []int
	for i := sort.Search(len(m.rev), func(i int) bool { return m.rev[i].src >= id }); i < len(m.rev) && m.rev[i].src == id; i++ {
		if l := int(m.rev[i].line) + 1; len(out) == 0 || out[len(out)-1] != l {
			out = append(out, l)
		}
	}
	return out
}
