// Command imagetool packs the cluster tier's test images into an OCI image
// layout and serves such a layout as a registry on 127.0.0.1, with
// go-containerregistry.
//
//	imagetool pack -spec images.json -layout DIR -src NAME=PATH ...
//	imagetool serve -layout DIR -addr 127.0.0.1:0 -ready FILE [-slow REPOSITORY=DURATION ...]
//
// pack builds every image of the spec: its layers are made of the files and
// folders the spec names (sources given with -src), deterministic (owner 0,
// times at the epoch), so the same inputs give the same digests. Each image
// is written under each of its names (annotation org.opencontainers.image.ref.name,
// "repository:tag").
//
// serve answers the registry API with the layout's blobs read from disk and
// its manifests under their names; it writes "host:port" to the ready file
// once every manifest is served, logs each request on stdout, and stops on
// SIGTERM. -slow makes every request for one repository wait first, so that
// a test can act while a pull of it is under way.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
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

	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

const refName = "org.opencontainers.image.ref.name"

func main() {
	if len(os.Args) < 2 {
		fail("usage: imagetool pack|serve [flags]")
	}
	switch os.Args[1] {
	case "pack":
		pack(os.Args[2:])
	case "serve":
		serve(os.Args[2:])
	default:
		fail("unknown command %q (pack or serve)", os.Args[1])
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "imagetool: "+format+"\n", args...)
	os.Exit(1)
}

// --- pack --------------------------------------------------------------------

type fileSpec struct {
	Src  string `json:"src"`
	Dst  string `json:"dst"`
	Mode string `json:"mode,omitempty"`
}

type dirSpec struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
}

type linkSpec struct {
	Dst    string `json:"dst"`
	Target string `json:"target"`
}

type layerSpec struct {
	Files []fileSpec `json:"files,omitempty"`
	// Links are symbolic links (dst -> target).
	Links []linkSpec `json:"links,omitempty"`
	// Trees are folders copied with everything under them (files 0644, folders 0755).
	Trees []fileSpec `json:"trees,omitempty"`
	Dirs  []dirSpec  `json:"dirs,omitempty"`
}

type imageSpec struct {
	Names      []string `json:"names"`
	Layers     []string `json:"layers"`
	Entrypoint []string `json:"entrypoint,omitempty"`
	Cmd        []string `json:"cmd,omitempty"`
	Env        []string `json:"env,omitempty"`
	User       string   `json:"user,omitempty"`
	WorkingDir string   `json:"workingDir,omitempty"`
}

type spec struct {
	Layers map[string]layerSpec `json:"layers"`
	Images []imageSpec          `json:"images"`
}

type srcFlags map[string]string

func (s srcFlags) String() string { return fmt.Sprint(map[string]string(s)) }
func (s srcFlags) Set(v string) error {
	k, p, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("-src %q: want NAME=PATH", v)
	}
	s[k] = p
	return nil
}

func pack(args []string) {
	fl := flag.NewFlagSet("pack", flag.ExitOnError)
	specFile := fl.String("spec", "", "the images to build (JSON)")
	out := fl.String("layout", "", "the OCI image layout to write (must not exist)")
	srcs := srcFlags{}
	fl.Var(srcs, "src", "NAME=PATH: where a source the spec names is (repeatable)")
	_ = fl.Parse(args)
	if *specFile == "" || *out == "" {
		fail("pack needs -spec and -layout")
	}
	raw, err := os.ReadFile(*specFile)
	if err != nil {
		fail("%v", err)
	}
	var s spec
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		fail("%s: %v", *specFile, err)
	}
	if _, err := os.Stat(*out); err == nil {
		fail("%s exists already", *out)
	}
	p, err := layout.Write(*out, empty.Index)
	if err != nil {
		fail("%v", err)
	}
	layers := map[string]v1.Layer{}
	for _, im := range s.Images {
		img := empty.Image
		img = mutate.MediaType(img, types.OCIManifestSchema1)
		img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
		for _, name := range im.Layers {
			l, ok := layers[name]
			if !ok {
				ls, found := s.Layers[name]
				if !found {
					fail("image %v: no layer %q in the spec", im.Names, name)
				}
				if l, err = buildLayer(name, ls, srcs); err != nil {
					fail("layer %s: %v", name, err)
				}
				layers[name] = l
			}
			if img, err = mutate.AppendLayers(img, l); err != nil {
				fail("%v", err)
			}
		}
		cf, err := img.ConfigFile()
		if err != nil {
			fail("%v", err)
		}
		cf = cf.DeepCopy()
		cf.Architecture, cf.OS = "amd64", "linux"
		cf.Created = v1.Time{Time: time.Unix(0, 0).UTC()}
		cf.Config = v1.Config{Entrypoint: im.Entrypoint, Cmd: im.Cmd, Env: im.Env, User: im.User, WorkingDir: im.WorkingDir}
		if img, err = mutate.ConfigFile(img, cf); err != nil {
			fail("%v", err)
		}
		for _, name := range im.Names {
			if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{refName: name})); err != nil {
				fail("writing %s: %v", name, err)
			}
		}
		d, _ := img.Digest()
		fmt.Printf("%s %s\n", d, strings.Join(im.Names, " "))
	}
}

// buildLayer writes one deterministic tar layer (gzip, fastest level).
func buildLayer(name string, ls layerSpec, srcs srcFlags) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	epoch := time.Unix(0, 0).UTC()
	seen := map[string]bool{}
	dir := func(p string, mode int64) error {
		p = strings.TrimPrefix(filepath.Clean(p), "/")
		if p == "." || seen[p+"/"] {
			return nil
		}
		seen[p+"/"] = true
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: p + "/", Mode: mode, ModTime: epoch, Format: tar.FormatPAX})
	}
	parents := func(p string) error {
		parts := strings.Split(strings.TrimPrefix(filepath.Dir(p), "/"), "/")
		for i := range parts {
			if err := dir(strings.Join(parts[:i+1], "/"), 0o755); err != nil {
				return err
			}
		}
		return nil
	}
	file := func(src, dst string, mode int64) error {
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := parents(dst); err != nil {
			return err
		}
		dst = strings.TrimPrefix(filepath.Clean(dst), "/")
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: dst, Mode: mode, Size: int64(len(b)), ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err = tw.Write(b)
		return err
	}
	resolve := func(src string) (string, error) {
		if p, ok := srcs[src]; ok {
			return p, nil
		}
		return "", fmt.Errorf("source %q not given (-src %s=PATH)", src, src)
	}
	for _, d := range ls.Dirs {
		mode, err := strconv.ParseInt(d.Mode, 8, 64)
		if err != nil {
			return nil, fmt.Errorf("dir %s: mode %q: %v", d.Path, d.Mode, err)
		}
		if err := parents(d.Path); err != nil {
			return nil, err
		}
		if err := dir(d.Path, mode); err != nil {
			return nil, err
		}
	}
	for _, f := range ls.Files {
		src, err := resolve(f.Src)
		if err != nil {
			return nil, err
		}
		mode := int64(0o755)
		if f.Mode != "" {
			if mode, err = strconv.ParseInt(f.Mode, 8, 64); err != nil {
				return nil, fmt.Errorf("file %s: mode %q: %v", f.Dst, f.Mode, err)
			}
		}
		if err := file(src, f.Dst, mode); err != nil {
			return nil, err
		}
	}
	for _, t := range ls.Trees {
		root, err := resolve(t.Src)
		if err != nil {
			return nil, err
		}
		var paths []string
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			paths = append(paths, p)
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(paths)
		for _, p := range paths {
			rel, _ := filepath.Rel(root, p)
			dst := filepath.Join(t.Dst, rel)
			st, err := os.Stat(p)
			if err != nil {
				return nil, err
			}
			if st.IsDir() {
				if err := parents(dst + "/x"); err != nil {
					return nil, err
				}
				continue
			}
			if err := file(p, dst, 0o644); err != nil {
				return nil, err
			}
		}
	}
	for _, l := range ls.Links {
		if err := parents(l.Dst); err != nil {
			return nil, err
		}
		dst := strings.TrimPrefix(filepath.Clean(l.Dst), "/")
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: dst, Linkname: l.Target, Mode: 0o777, ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithCompressionLevel(gzip.BestSpeed), tarball.WithMediaType(types.OCILayer))
}

// --- serve -------------------------------------------------------------------

func serve(args []string) {
	fl := flag.NewFlagSet("serve", flag.ExitOnError)
	dir := fl.String("layout", "", "the OCI image layout to serve")
	addr := fl.String("addr", "127.0.0.1:0", "where to listen")
	ready := fl.String("ready", "", "file to write host:port to once every image is served")
	slow := srcFlags{}
	fl.Var(slow, "slow", "REPOSITORY=DURATION: wait this long before answering any request for the repository (repeatable)")
	_ = fl.Parse(args)
	delays := map[string]time.Duration{}
	for repo, d := range slow {
		v, err := time.ParseDuration(d)
		if err != nil {
			fail("-slow %s=%s: %v", repo, d, err)
		}
		delays["/v2/"+repo+"/"] = v
	}
	if *dir == "" || *ready == "" {
		fail("serve needs -layout and -ready")
	}
	idx, err := layout.ImageIndexFromPath(*dir)
	if err != nil {
		fail("%v", err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		fail("%v", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fail("%v", err)
	}
	logger := log.New(os.Stdout, "", log.LstdFlags|log.Lmicroseconds)
	reg := registry.New(registry.Logger(logger), registry.WithBlobHandler(registry.NewDiskBlobHandler(filepath.Join(*dir, "blobs"))))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for prefix, d := range delays {
			if strings.HasPrefix(r.URL.Path, prefix) && r.Method != http.MethodPut {
				logger.Printf("%s %s: waiting %s first", r.Method, r.URL.Path, d)
				time.Sleep(d)
			}
		}
		reg.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
			fail("%v", err)
		}
	}()
	host := ln.Addr().String()
	p := layout.Path(*dir)
	for _, d := range im.Manifests {
		name := d.Annotations[refName]
		i := strings.LastIndex(name, ":")
		if name == "" || i < 0 || strings.Contains(name[i:], "/") {
			fail("manifest %s has no repository:tag name (%q)", d.Digest, name)
		}
		raw, err := p.Bytes(d.Digest)
		if err != nil {
			fail("%v", err)
		}
		req, _ := http.NewRequest(http.MethodPut, fmt.Sprintf("http://%s/v2/%s/manifests/%s", host, name[:i], name[i+1:]), bytes.NewReader(raw))
		req.Header.Set("Content-Type", string(d.MediaType))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			fail("putting %s: %v", name, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			fail("putting %s: HTTP %d %s", name, res.StatusCode, body)
		}
	}
	if err := os.WriteFile(*ready+".tmp", []byte(host+"\n"), 0o644); err != nil {
		fail("%v", err)
	}
	if err := os.Rename(*ready+".tmp", *ready); err != nil {
		fail("%v", err)
	}
	logger.Printf("serving %d images at %s", len(im.Manifests), host)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	_ = srv.Close()
}
