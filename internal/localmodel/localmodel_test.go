package localmodel

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"
)

// serve starts a server answering GET /v1/models with body after delay and
// returns its port.
func serve(t *testing.T, status int, body string, delay time.Duration) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return port
}

// closedPort returns a port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

func TestFindKeepsOnlyServersThatListModels(t *testing.T) {
	models := `{"object":"list","data":[{"id":"qwen3-coder","object":"model"},{"id":"llama3"}]}`
	candidates := []Candidate{
		{Name: "closed", Port: closedPort(t)},
		{Name: "ollama", Port: serve(t, 200, models, 0)},
		{Name: "slow", Port: serve(t, 200, models, 2*time.Second)},
		{Name: "not-openai", Port: serve(t, 200, `<html>hello</html>`, 0)},
		{Name: "no-models", Port: serve(t, 200, `{"data":[]}`, 0)},
		{Name: "error", Port: serve(t, 500, models, 0)},
		{Name: "lmstudio", Port: serve(t, 200, `{"data":[{"id":"phi-4"}]}`, 0)},
	}
	start := time.Now()
	found := Find(context.Background(), candidates)
	if took := time.Since(start); took > Budget+50*time.Millisecond {
		t.Errorf("Find took %s, over its budget of %s", took, Budget)
	}
	var names []string
	for _, s := range found {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"ollama", "lmstudio"}) {
		t.Fatalf("found %q, want ollama then lmstudio", names)
	}
	if got := found[0]; got.BaseURL != "http://127.0.0.1:"+strconv.Itoa(candidates[1].Port)+"/v1" || !slices.Equal(got.Models, []string{"qwen3-coder", "llama3"}) {
		t.Errorf("found %+v", got)
	}
}

func TestCandidates(t *testing.T) {
	cases := []struct {
		env     string
		want    []Candidate
		wantErr bool
	}{
		{env: "", want: Usual},
		{env: "8123", want: []Candidate{{Name: "local", Port: 8123}}},
		{env: "8123, 9000", want: []Candidate{{Name: "local", Port: 8123}, {Name: "local", Port: 9000}}},
		{env: "ollama", wantErr: true},
		{env: "70000", wantErr: true},
	}
	for _, c := range cases {
		got, err := Candidates(c.env)
		if (err != nil) != c.wantErr || !slices.Equal(got, c.want) {
			t.Errorf("Candidates(%q) = %v, %v; want %v, error %v", c.env, got, err, c.want, c.wantErr)
		}
	}
}
