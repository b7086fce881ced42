package convert

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// converters are every conversion of a struct; TestConversionsComplete holds each to its types.
var converters = []any{
	FromBreakableLine, FromBreakpoint, FromSourceLine, FromVariable, FromStackFrame, FromState,
	FromEvalResult, FromExecOutput, FromOutputEntry, FromHook, FromCompileError, FromHotpatchResult,
	FromLogpoint, FromEvidenceResult, FromEvidence, FromFailure, FromEvidenceItem, FromEvidenceValue,
	FromRelevantInput, FromSourceView, FromMatch, FromContextView, FromProperty, FromProps,
	FromInstances, FromSnapshotInfo, FromDeleteSnapshotResponse, FromHeapUsage, FromFunctionTime, FromHotLine, FromSlowTarget, FromSlowReport, FromAliveHandle, FromAliveTarget, FromAliveReport,
	FromCPUProfile, FromAllocationSite, FromHeapSampling, FromSourceMapStatus, FromSourceMapsResponse,
	FromEvent, FromFrame, FromText, FromContextInfo, FromScriptInfo, FromConsoleInfo,
	FromExceptionInfo, FromPauseInfo, FromOutputInfo, FromExitInfo, FromLogpointInfo, FromHookInfo,
	FromSummary, FromBreakpointInfo, FromProgressInfo, FromGenerated, FromGap, FromThrowInfo,
	FromTargetInfo,
}

// notFromTheEngine are wire fields the edge fills from elsewhere than the engine's value.
var notFromTheEngine = map[string]bool{
	"api.Summary.Export": true, // the OTLP exporter's counts, added by routes and the stream
}

// TestConversionsComplete: the engine's data types and their wire types have the same fields, and
// each conversion carries every one of them. An engine field added without its wire field (or the
// other way round), or a conversion that forgets one, fails here rather than vanishing from the
// answers.
func TestConversionsComplete(t *testing.T) {
	for _, c := range converters {
		f := reflect.ValueOf(c)
		in, out := f.Type().In(0), f.Type().Out(0)
		if missing := fieldsOnlyIn(in, out); len(missing) > 0 {
			t.Errorf("%v has fields %v that %v lacks", in, missing, out)
		}
		if extra := fieldsOnlyIn(out, in); len(extra) > 0 {
			t.Errorf("%v has fields %v that %v lacks", out, extra, in)
		}
		v := reflect.New(in).Elem()
		fill(v, 0)
		got := f.Call([]reflect.Value{v})[0]
		for _, path := range zeroFields(got, out.String()) {
			t.Errorf("%s is not carried by the conversion of %v", path, in)
		}
	}
}

// fieldsOnlyIn lists a's fields that b has not, excepting those the edge fills from elsewhere.
func fieldsOnlyIn(a, b reflect.Type) []string {
	var out []string
	for i := range a.NumField() {
		name := a.Field(i).Name
		if _, ok := b.FieldByName(name); !ok && !notFromTheEngine[a.String()+"."+name] {
			out = append(out, name)
		}
	}
	return out
}

// fillDepth and checkDepth bound the recursion (Property holds Properties): what fill leaves zero
// past fillDepth lies deeper than the check looks.
const fillDepth, checkDepth = 12, 8

// fill sets every field of v to a non-zero value, recursing fillDepth levels into it.
func fill(v reflect.Value, depth int) {
	if depth > fillDepth {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Uint64, reflect.Uint32, reflect.Uint:
		v.SetUint(7)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf("x"))
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Unix(1, 0)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}

// zeroFields lists the paths of v's zero fields, checkDepth levels into it.
func zeroFields(v reflect.Value, path string) []string {
	var out []string
	var walk func(v reflect.Value, path string, depth int)
	walk = func(v reflect.Value, path string, depth int) {
		if depth > checkDepth || notFromTheEngine[path] {
			return
		}
		if v.IsZero() {
			out = append(out, path)
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			walk(v.Elem(), path, depth+1)
		case reflect.Slice:
			walk(v.Index(0), path+"[0]", depth+1)
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(time.Time{}) {
				return
			}
			for i := range v.NumField() {
				name := v.Type().Field(i).Name
				p := path + "." + name
				if strings.Count(path, ".") == 0 {
					p = v.Type().String() + "." + name
				}
				walk(v.Field(i), p, depth+1)
			}
		}
	}
	walk(v, path, 0)
	return out
}
