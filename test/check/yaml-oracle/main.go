// The oracle of test/check/yaml.test.ts: sigs.k8s.io/yaml, the YAML-to-JSON
// conversion kubectl applies to every manifest it reads. It reads a JSON list
// of YAML texts on standard input and writes, for each, the JSON kubectl
// would send, or the error it would print.
package main

import (
	"encoding/json"
	"os"

	"sigs.k8s.io/yaml"
)

type result struct {
	JSON  *json.RawMessage `json:"json,omitempty"`
	Error string           `json:"error,omitempty"`
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	out := make([]result, len(texts))
	for i, t := range texts {
		j, err := yaml.YAMLToJSON([]byte(t))
		if err != nil {
			out[i].Error = err.Error()
			continue
		}
		raw := json.RawMessage(j)
		out[i].JSON = &raw
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(1)
	}
}
