package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
)

// Helpers that run the real `webcoding` binary as separate processes (issue 14: two processes
// sharing one durable store, a process SIGKILLed mid-save) and put a cuttable TCP proxy in
// front of a real server (a durable store that dies or hangs mid-batch).

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// cliBinary builds host/cmd/webcoding once per test binary.
func cliBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "webcoding-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "webcoding")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = &buildError{out: string(out), err: err}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type buildError struct {
	out string
	err error
}

func (b *buildError) Error() string { return "go build: " + b.err.Error() + "\n" + b.out }

// proc is a running `webcoding` process fed line by line.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr *lockedBuffer
}

func startProc(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(cliBinary(t), args...)
	cmd.Env = append(append(os.Environ(), "WEBCODING_MODULE="+testModule), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20), stderr: &lockedBuffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return p
}

// send writes one line; roundTrip writes it and reads one result line.
func (p *proc) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		t.Fatalf("write stdin: %v\nstderr: %s", err, p.stderr.String())
	}
}

func (p *proc) readLine(t *testing.T) string {
	t.Helper()
	l, err := p.out.ReadString('\n')
	if err != nil {
		t.Fatalf("read stdout: %v (got %q)\nstderr: %s", err, l, p.stderr.String())
	}
	return strings.TrimSuffix(l, "\n")
}

func (p *proc) roundTrip(t *testing.T, line string) *mcp.CallToolResult {
	t.Helper()
	p.send(t, line)
	return result(t, json.RawMessage(p.readLine(t)))
}

// finish closes stdin and returns the remaining stdout and the exit code.
func (p *proc) finish(t *testing.T) (rest string, code int) {
	t.Helper()
	_ = p.stdin.Close()
	b, _ := io.ReadAll(p.out)
	err := p.cmd.Wait()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(b), code
}

// kill SIGKILLs the process and waits for it.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
}

// tcpProxy forwards loopback connections to target until cut: then it closes the listener
// and every connection (the server looks dead to its clients). With hang set, it accepts
// connections and never answers nor forwards (a server that hangs).
type tcpProxy struct {
	ln     net.Listener
	target string
	hang   bool
	frozen atomic.Bool // freeze: bytes are swallowed, nothing is forwarded nor closed
	mu     sync.Mutex
	conns  []net.Conn
	cutted bool
}

func newTCPProxy(t *testing.T, target string, hang bool) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln, target: target, hang: hang}
	go p.serve()
	t.Cleanup(p.cut)
	return p
}

func (p *tcpProxy) addr() string { return p.ln.Addr().String() }

func (p *tcpProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cutted {
			p.mu.Unlock()
			c.Close()
			return
		}
		p.conns = append(p.conns, c)
		p.mu.Unlock()
		if p.hang {
			continue // hold the connection open, never read nor answer
		}
		go func() {
			s, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, s)
			p.mu.Unlock()
			go func() { p.copy(s, c); s.Close() }()
			p.copy(c, s)
			c.Close()
		}()
	}
}

// copy forwards src to dst until either fails; while frozen it reads and drops.
func (p *tcpProxy) copy(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.frozen.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// freeze makes the server look hung: connections stay open, nothing is answered.
func (p *tcpProxy) freeze() { p.frozen.Store(true) }

func (p *tcpProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cutted {
		return
	}
	p.cutted = true
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
}

// withHost replaces the host:port of a redis:// or postgres:// URL.
func withHost(t *testing.T, raw, hostport string) string {
	t.Helper()
	i := strings.Index(raw, "://")
	if i < 0 {
		t.Fatalf("not a URL: %s", raw)
	}
	rest := raw[i+3:]
	j := strings.IndexAny(rest, "/?")
	if j < 0 {
		j = len(rest)
	}
	auth := ""
	if k := strings.LastIndex(rest[:j], "@"); k >= 0 {
		auth = rest[:k+1]
	}
	return raw[:i+3] + auth + hostport + rest[j:]
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	i := strings.Index(raw, "://")
	rest := raw[i+3:]
	j := strings.IndexAny(rest, "/?")
	if j < 0 {
		j = len(rest)
	}
	h := rest[:j]
	if k := strings.LastIndex(h, "@"); k >= 0 {
		h = h[k+1:]
	}
	return h
}
