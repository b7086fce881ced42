package cli

import "testing"

func TestProcAddr(t *testing.T) {
	for in, want := range map[string]string{
		"0100007F:1E61":                         "127.0.0.1:7777",
		"00000000000000000000000001000000:0050": "[::1]:80",
		"0100007F":                              "",
		"zz00007F:0050":                         "",
	} {
		got, ok := procAddr(in)
		if (want == "") != !ok || (ok && got.String() != want) {
			t.Errorf("procAddr(%q) = %v %v, want %q", in, got, ok, want)
		}
	}
}
