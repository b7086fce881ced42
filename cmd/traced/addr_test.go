package main

import (
	"net/netip"
	"strings"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr        string
		allowRemote bool
		want        string // the bound address; "" when refused
		wantErr     string // part of the refusal
	}{
		{addr: "127.0.0.1:0", want: "127.0.0.1"},
		{addr: "localhost:0", want: "127.0.0.1"},
		{addr: "[::1]:0", want: "::1"},
		{addr: "127.0.0.2:7777", want: "127.0.0.2"},
		{addr: "0.0.0.0:0", wantErr: "--allow-remote"},
		{addr: "0.0.0.0:0", allowRemote: true, want: "0.0.0.0"},
		{addr: "[::]:0", wantErr: "--allow-remote"},
		{addr: "192.0.2.1:80", wantErr: "not loopback"},
		{addr: ":0", wantErr: "IP address or localhost"}, // an empty host listens everywhere
		{addr: "example.com:80", wantErr: "IP address or localhost"},
		{addr: "example.com:80", allowRemote: true, wantErr: "IP address or localhost"},
		{addr: "nonsense", wantErr: "missing port"},
	}
	for _, tt := range tests {
		got, err := checkAddr(tt.addr, tt.allowRemote)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("checkAddr(%q, %v) = %v, %v; want an error mentioning %q", tt.addr, tt.allowRemote, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != netip.MustParseAddr(tt.want) {
			t.Errorf("checkAddr(%q, %v) = %v, %v; want %s", tt.addr, tt.allowRemote, got, err, tt.want)
		}
	}
}
