// Command webcoding is the headless studio: it runs the core, built for GOOS=wasip1, inside
// wazero (host/wasmhost) and speaks to it through the same JSON-RPC byte ABI as the browser
// (SPEC §3, "webcoding CLI"). Headless commands never take a native shortcut into the core.
//
// Usage:
//
//	webcoding <command> [flags]
//
// Commands (one file each; add a command by writing a file that calls register in init):
//
//	tools    print the full canonical tools/list as {"tools":[...]}
//	call     run JSON Lines of tools/call params from stdin, one result line each on stdout
//	agent    run the local agent on a prompt: JSON Lines of its calls, then the summary
//	preview  compile the preview: {"entry","revision","diagnostics","bytes"}, document to --out
//	export   write the standalone HTML export to --out (outside --dir): {"out","bytes","diagnostics"};
//	         --zip FILE writes the whole workspace as a ZIP instead: {"zip","bytes","files"}
//	build    write the static site (build.go)
//	serve    serve a built site (serve.go)
//
// Workspace commands take --dir DIR, a folder linked like a picked folder (the module reaches
// it through host functions, wasmhost.Options.FolderDir); without it the built-in 4-file seed
// workspace is used, in memory. Edits reach DIR only through workspace.saveAll (call's
// --autosave, agent's --save).
//
// The core module is found with --module PATH, else $WEBCODING_MODULE, else it is built from
// the source tree (wasmhost.BuildModule) into os.UserCacheDir()/webcoding/module and reused
// while the sources are unchanged.
//
// Exit status: 0 when the command ran (tool errors are results), 2 for bad flags or usage,
// 1 for failures of the host itself. Diagnostics go to stderr only; stdout carries only the
// command's output.
// Owns: the command line: commands, flags, exit statuses, the JSON Lines and stderr formats, and
// the wiring of wasmhost, folder, the durable stores and mcpserver.
//
// Must never: run a tool or apply a workspace rule natively (every call goes through the core
// in wazero), or print anything but the command's output on stdout.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// Exit statuses (SPEC §3).
const (
	exitOK    = 0
	exitHost  = 1
	exitUsage = 2
)

// command is one subcommand.
type command struct {
	Name    string
	Usage   string // flags synopsis, e.g. "[--mode direct|agent]"
	Summary string
	Run     func(ctx context.Context, e *env, args []string) error
}

var commands = map[string]*command{}

// register adds a subcommand; each command file calls it from init.
func register(c *command) {
	if _, dup := commands[c.Name]; dup {
		panic("webcoding: command registered twice: " + c.Name)
	}
	commands[c.Name] = c
}

// env is what a command may touch: its streams, the environment and the way to start a host
// (replaced in tests).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	newHost        func(ctx context.Context, e *env, hf *hostFlags) (rpcHost, error)
}

// usageError is a bad flag or argument: exit status 2.
type usageError struct{ msg string }

func (u *usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// main runs one command. Interrupts keep their default effect (the process ends at once):
// the module's state lives in this process, and commands that must finish cleanly on a signal
// (serve, mcp) install their own handling.
func main() {
	os.Exit(run(context.Background(), os.Args[1:], &env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, newHost: openHost,
	}))
}

// run executes one command line and returns its exit status.
func run(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 {
		printUsage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		printUsage(e.stdout)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "webcoding: unknown command %q\n", args[0])
		printUsage(e.stderr)
		return exitUsage
	}
	err := c.Run(ctx, e, args[1:])
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "webcoding %s: %s\nusage: webcoding %s %s\nrun 'webcoding %s -h' for flags\n", c.Name, ue.msg, c.Name, c.Usage, c.Name)
		return exitUsage
	default:
		fmt.Fprintf(e.stderr, "webcoding %s: %v\n", c.Name, err)
		return exitHost
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: webcoding <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintln(w, "\nRun 'webcoding <command> -h' for its flags.")
}

// newFlagSet returns a flag set whose errors become usage errors (exit 2; run prints the
// message and the one-line usage, not the flag list) and whose -h prints the usage line and
// every flag to stderr.
func newFlagSet(c string, e *env) *flag.FlagSet {
	fs := flag.NewFlagSet("webcoding "+c, flag.ContinueOnError)
	out := &flagErrors{}
	fs.SetOutput(out)
	fs.Usage = func() {
		if out.failed { // a parse error: the package printed it; run prints the short usage
			out.failed = false
			return
		}
		usage := ""
		if cmd := commands[c]; cmd != nil {
			usage = cmd.Usage
		}
		fmt.Fprintf(e.stderr, "usage: webcoding %s %s\n\nflags:\n", c, usage)
		fs.SetOutput(e.stderr)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	return fs
}

// flagErrors swallows what the flag package prints for a parse error (the error itself, which
// Parse also returns) and records that one was printed, so Usage can tell an error from -h.
type flagErrors struct{ failed bool }

func (f *flagErrors) Write(p []byte) (int, error) { f.failed = true; return len(p), nil }

// parseFlags parses args and refuses positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", strings.Join(fs.Args(), " "))
	}
	return nil
}
