// Command server is the cluster tier's test workload on real nodes: an HTTP
// server that says which version it is, which process answers and what
// environment it was started with, so a test can tell a restarted container
// from a kept one and read what the kubelet passed in.
//
//	server                 serve on :$PORT (default 8080) until SIGTERM
//	server run-for 2s      print the version, wait, exit 0 (a job's pod)
//	server probe URL       GET URL, exit 0 on HTTP 200, 1 otherwise (an exec probe)
//
// Called by another name (a link in the image), it is the few commands the
// tier's images need besides:
//
//	env                    print the environment (kruise-daemon reads a container's env this way)
//	sleep N, sh -c 'sleep N'
//	                       wait N seconds or until SIGTERM (the golden plan cases run busybox so)
//
// An image that stands in for another program (images.json: fluent-bit) is
// started with that program's arguments: with SERVER_IGNORE_ARGS=1 it serves
// whatever they are, and reports them.
//
// GET / answers JSON: version ($SERVER_VERSION), hostname, pid, start time,
// the arguments it was started with and every variable whose name starts
// with APP_. GET /healthz answers 200; GET
// /fail answers 500. With SERVER_REUSEPORT=1 the socket is opened with
// SO_REUSEPORT, so a second copy in the same network namespace can take
// over the port while the first still serves (a sidecar hot upgrade).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var started = time.Now().UTC()

func main() {
	switch filepath.Base(os.Args[0]) {
	case "env":
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
		return
	case "sleep":
		sleepFor(os.Args[1:])
		return
	case "sh":
		if len(os.Args) == 3 && os.Args[1] == "-c" {
			if f := strings.Fields(os.Args[2]); len(f) == 2 && f[0] == "sleep" {
				sleepFor(f[1:])
				return
			}
		}
		fmt.Fprintf(os.Stderr, "sh: only `sh -c 'sleep N'` is known here, not %q\n", os.Args[1:])
		os.Exit(127)
	}
	if len(os.Args) > 1 && os.Getenv("SERVER_IGNORE_ARGS") != "1" {
		switch os.Args[1] {
		case "run-for":
			runFor(os.Args[2:])
			return
		case "probe":
			probe(os.Args[2:])
			return
		default:
			fmt.Fprintf(os.Stderr, "server: unknown command %q (serve with no argument, run-for DURATION, probe URL)\n", os.Args[1])
			os.Exit(2)
		}
	}
	serve()
}

func version() string {
	if v := os.Getenv("SERVER_VERSION"); v != "" {
		return v
	}
	return "unset"
}

// sleepFor waits N seconds (or forever for "infinity"), ending early on SIGTERM or SIGINT.
func sleepFor(args []string) {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "sleep: one number of seconds")
		os.Exit(2)
	}
	var wait <-chan time.Time
	if args[0] != "infinity" {
		n, err := strconv.ParseFloat(args[0], 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "sleep: %v\n", err)
			os.Exit(2)
		}
		wait = time.After(time.Duration(n * float64(time.Second)))
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-wait:
	case <-stop:
	}
}

func runFor(args []string) {
	d := time.Second
	if len(args) > 0 {
		var err error
		if d, err = time.ParseDuration(args[0]); err != nil {
			fmt.Fprintf(os.Stderr, "server: run-for %q: %v\n", args[0], err)
			os.Exit(2)
		}
	}
	fmt.Printf("server %s: running for %s\n", version(), d)
	time.Sleep(d)
	fmt.Printf("server %s: done\n", version())
}

func probe(args []string) {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "server: probe needs one URL")
		os.Exit(2)
	}
	c := http.Client{Timeout: 2 * time.Second}
	res, err := c.Get(args[0])
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	res.Body.Close()
	fmt.Println(res.Status)
	if res.StatusCode != http.StatusOK {
		os.Exit(1)
	}
}

type answer struct {
	Version  string            `json:"version"`
	Hostname string            `json:"hostname"`
	PID      int               `json:"pid"`
	Started  string            `json:"started"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
}

func serve() {
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	host, _ := os.Hostname()
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "APP_") {
			env[k] = v
		}
	}
	body := answer{Version: version(), Hostname: host, PID: os.Getpid(), Started: started.Format(time.RFC3339Nano), Args: os.Args[1:], Env: env}

	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(body)
	})
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/fail", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "failing on purpose", http.StatusInternalServerError)
	})

	lc := net.ListenConfig{}
	if os.Getenv("SERVER_REUSEPORT") == "1" {
		lc.Control = func(_, _ string, c syscall.RawConn) error {
			var serr error
			err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, 0xf /* SO_REUSEPORT */, 1) })
			if err != nil {
				return err
			}
			return serr
		}
	}
	ln, err := lc.Listen(context.Background(), "tcp", ":"+port)
	if err != nil {
		fmt.Fprintf(os.Stderr, "server: %v\n", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Printf("server %s: listening on :%s (env %s)\n", body.Version, port, strings.Join(names, ","))

	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintf(os.Stderr, "server: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("server %s: stopped\n", body.Version)
}
