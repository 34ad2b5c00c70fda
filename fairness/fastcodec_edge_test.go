package fairness

import (
	"strings"
	"testing"
)

// TestFastDecodeEdgeForms: forms at the edges of Salvo's one form, where a
// hand-written reader and encoding/json could part (nulls, empty values,
// integer limits, number forms inside a move, escapes, DEL, deep nesting,
// duplicate keys inside an opaque value): whatever the fast path takes,
// the slow path takes as the same value (checkFastBody, checkFastEnvelope),
// so the decoders accept a line exactly when the slow path does.
func TestFastDecodeEdgeForms(t *testing.T) {
	salt := `"` + hex64 + `"`
	deep := strings.Repeat("[", 70) + strings.Repeat("]", 70)
	bodies := []string{
		`{"inputs":[{"t":"move","move":null}],"state":"s"}`,
		`{"inputs":[{"t":"move","move":""}],"state":"s"}`,
		`{"inputs":[{"t":"move","move":{"a":1,"a":2}}],"state":"s"}`,
		`{"inputs":[{"t":"move","move":[-0,1E+5,0.0e-0,1e5,-1.5E-7]}],"state":"s"}`,
		`{"inputs":[{"t":"move","move":"\u0041"}],"state":"s"}`,
		"{\"inputs\":[{\"t\":\"move\",\"move\":\"\x7f\"}],\"state\":\"s\"}",
		`{"inputs":[{"t":"move","move":` + deep + `}],"state":"s"}`,
		`{"inputs":[{"t":"commit","size":9223372036854775807}],"state":"s"}`,
		`{"inputs":[{"t":"commit","size":9223372036854775808}],"state":"s"}`,
		`{"inputs":[{"t":"commit","size":-9223372036854775808}],"state":"s"}`,
		`{"inputs":[{"t":"commit","size":-0}],"state":"s"}`,
		`{"inputs":[{"t":"open","open":[{"slot":{"owner":-1,"name":"","index":-1},"value":"","salt":` + salt + `,"path":null}]}],"state":"s"}`,
		`{"inputs":[{"t":"open","open":[{"slot":{"owner":0,"name":"g","index":0},"value":"","salt":` + salt + `,"path":[]}]}],"state":"s"}`,
		`{"inputs":[{"t":"open","open":[{"slot":{"owner":0,"name":"g","index":0},"value":null,"salt":` + salt + `,"path":[]}]}],"state":"s"}`,
		`{"inputs":[{"t":"open","full":[{"name":"g","values":null,"salts":null}]}],"state":"s"}`,
		`{"inputs":[{"t":"open","full":[{"name":"g","values":[""],"salts":[` + salt + `]}]}],"state":"s"}`,
		`{"inputs":[{"t":"unmask","shares":[""]}],"state":"s"}`,
		`{"inputs":[{"t":"unmask","shares":[null]}],"state":"s"}`,
		`{"inputs":[{"t":"unmask","shares":["AA==","AAA=","AAAA"]}],"state":"s"}`,
		`{"inputs":[{"t":"unmask","shares":["AA=="]},{"t":"remove","gone":1}],"state":"s"}`,
		`{"inputs":[{"t":"key","key":"AA=="}],"state":"s"}`,
		`{"inputs":[{"t":"key","key":""}],"state":"s"}`,
		`{"inputs":[{"t":""}],"state":""}`,
		`{"inputs":[],"state":"s"}`,
		`{"inputs":null,"state":"s"}`,
	}
	for _, b := range bodies {
		checkFastBody(t, []byte(b))
	}
	env := func(seq, body string) string {
		return `{"match":"m","seq":` + seq + `,"from":"p","prev":"q","body":` + body + `,"sig":"AAAA"}`
	}
	for _, e := range []string{
		env("18446744073709551615", `{}`),
		env("18446744073709551616", `{}`),
		env("0", `{"a":1,"a":2}`),
		env("1", `{"x":[1,{"y":null}],"z":true}`),
		env("1", `{ }`),
		env("1", `null`),
		env("1", `[]`),
	} {
		checkFastEnvelope(t, []byte(e))
	}
}
