// Command health-engines judges objects with the health checks of
// cdk8s-kruise as the two GitOps engines run them: the Lua script in
// gopher-lua, set up as Argo CD's health assessment sets it up (the object
// as the global `obj`, the package, base and table libraries only unless
// the case asks for the standard libraries, a one-second limit, the returned
// table read through JSON into a status and a message), and the CEL
// expressions through Flux's own status evaluator (github.com/fluxcd/pkg/runtime/cel,
// the code kustomize-controller calls for healthCheckExprs).
//
// With "kstatus": true a case is also judged by kstatus alone (what Flux
// says of an object without healthCheckExprs).
//
// stdin: {"cases":[{"id":"...","lua":"...","openLibs":false,"cel":{"current":"...","failed":"...","inProgress":"..."},"kstatus":true,"object":{...}}]}
// stdout: [{"id":"...","argo":{"status":"...","message":"..."},"argoError":"...","flux":"Current|InProgress|Failed","fluxError":"...","kstatus":"..."}]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/fluxcd/cli-utils/pkg/kstatus/status"
	"github.com/fluxcd/pkg/apis/kustomize"
	"github.com/fluxcd/pkg/runtime/cel"
	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	luajson "layeh.com/gopher-json"
)

type celExprs struct {
	Current    string `json:"current"`
	Failed     string `json:"failed,omitempty"`
	InProgress string `json:"inProgress,omitempty"`
}

type input struct {
	Cases []struct {
		ID       string          `json:"id"`
		Lua      string          `json:"lua,omitempty"`
		OpenLibs bool            `json:"openLibs,omitempty"`
		Cel      *celExprs       `json:"cel,omitempty"`
		KStatus  bool            `json:"kstatus,omitempty"`
		Object   json.RawMessage `json:"object"`
	} `json:"cases"`
}

type healthStatus struct {
	Status  string `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
}

type result struct {
	ID        string        `json:"id"`
	Argo      *healthStatus `json:"argo,omitempty"`
	ArgoError string        `json:"argoError,omitempty"`
	Flux      string        `json:"flux,omitempty"`
	FluxError string        `json:"fluxError,omitempty"`
	KStatus   string        `json:"kstatus,omitempty"`
}

// decodeValue turns the object into Lua values as Argo CD does.
func decodeValue(l *lua.LState, value any) lua.LValue {
	switch v := value.(type) {
	case bool:
		return lua.LBool(v)
	case float64:
		return lua.LNumber(v)
	case string:
		return lua.LString(v)
	case json.Number:
		return lua.LString(v)
	case int:
		return lua.LNumber(v)
	case int32:
		return lua.LNumber(v)
	case int64:
		return lua.LNumber(v)
	case []any:
		arr := l.CreateTable(len(v), 0)
		for _, item := range v {
			arr.Append(decodeValue(l, item))
		}
		return arr
	case map[string]any:
		tbl := l.CreateTable(0, len(v))
		for key, item := range v {
			tbl.RawSetH(lua.LString(key), decodeValue(l, item))
		}
		return tbl
	}
	return lua.LNil
}

var validStatus = map[string]bool{"Unknown": true, "Progressing": true, "Suspended": true, "Healthy": true, "Degraded": true, "Missing": true}

func runLua(obj *unstructured.Unstructured, script string, openLibs bool) (*healthStatus, error) {
	l := lua.NewState(lua.Options{SkipOpenLibs: !openLibs})
	defer l.Close()
	for _, pair := range []struct {
		n string
		f lua.LGFunction
	}{{lua.LoadLibName, lua.OpenPackage}, {lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}} {
		if err := l.CallByParam(lua.P{Fn: l.NewFunction(pair.f), NRet: 0, Protect: true}, lua.LString(pair.n)); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	l.SetContext(ctx)
	l.SetGlobal("obj", decodeValue(l, obj.Object))
	if err := l.DoString(script); err != nil {
		var apiErr *lua.ApiError
		if errors.As(err, &apiErr) && apiErr.Type == lua.ApiErrorRun {
			apiErr.StackTrace = ""
			return nil, apiErr
		}
		return nil, err
	}
	ret := l.Get(-1)
	switch ret.Type() {
	case lua.LTTable:
		b, err := luajson.Encode(ret)
		if err != nil {
			return nil, err
		}
		hs := &healthStatus{}
		if err := json.Unmarshal(b, hs); err != nil {
			var typeErr *json.UnmarshalTypeError
			if errors.As(err, &typeErr) && typeErr.Value == "array" {
				return &healthStatus{}, nil
			}
			return nil, err
		}
		if !validStatus[hs.Status] {
			return &healthStatus{Status: "Unknown", Message: "Lua returned an invalid health status"}, nil
		}
		return hs, nil
	case lua.LTNil:
		return &healthStatus{}, nil
	}
	return nil, fmt.Errorf("expect table output from Lua script, not %s", ret.Type().String())
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintf(os.Stderr, "health-engines: reading the cases: %v\n", err)
		os.Exit(1)
	}
	out := make([]result, 0, len(in.Cases))
	for _, c := range in.Cases {
		r := result{ID: c.ID}
		obj := &unstructured.Unstructured{}
		if err := obj.UnmarshalJSON(c.Object); err != nil {
			fmt.Fprintf(os.Stderr, "health-engines: case %s: the object: %v\n", c.ID, err)
			os.Exit(1)
		}
		if c.Lua != "" {
			hs, err := runLua(obj, c.Lua, c.OpenLibs)
			if err != nil {
				r.ArgoError = err.Error()
			} else {
				r.Argo = hs
			}
		}
		if c.Cel != nil {
			ev, err := cel.NewStatusEvaluator(&kustomize.HealthCheckExpressions{Current: c.Cel.Current, Failed: c.Cel.Failed, InProgress: c.Cel.InProgress})
			if err != nil {
				r.FluxError = err.Error()
			} else if res, err := ev.Evaluate(context.Background(), obj); err != nil {
				r.FluxError = err.Error()
			} else {
				r.Flux = string(res.Status)
			}
		}
		if c.KStatus {
			if res, err := status.Compute(obj); err != nil {
				r.KStatus = "error: " + err.Error()
			} else {
				r.KStatus = string(res.Status)
			}
		}
		out = append(out, r)
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "health-engines: %v\n", err)
		os.Exit(1)
	}
}
