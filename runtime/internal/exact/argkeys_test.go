package exact_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/internal/exact"
)

func TestCheckArgKeys(t *testing.T) {
	for _, tc := range []struct {
		args string
		keys string // "" when accepted
	}{
		{`{"service":"billing"}`, ""},
		{`{"service":"billing","services":1,"env":{"service":1}}`, ""},
		{`{"SERVICE":"web","service":"billing"}`, `"SERVICE" and "service" at $`},
		{`{"service":"billing","SERVICE":"web"}`, `"service" and "SERVICE" at $`},
		{`{"service":"a","ſervice":"b"}`, `"service" and "ſervice"`},
		{`{"kind":1,"\u212aind":2}`, "\"kind\" and \"\u212aind\""},
		{`{"a":1,"a":2}`, `"a" and "a"`},
		{`{"x":[{"y":1},{"Y":2,"y":3}]}`, `"Y" and "y" at $.x[]`},
		{`{"x":{"z":{"Ab":1,"aB":2}}}`, `at $.x.z`},
		{`{"x":[1,2,{"a":[{}]}],"X":1}`, `"x" and "X" at $`},
		{`{"é":1,"É":2}`, `"é" and "É"`},
		{`[{"a":1},{"a":1}]`, ""},
		{`{"a":{"b":1},"b":2}`, ""},
		{`not json {"a":1,"a":1}`, "not readable JSON"},
		{``, ""},
		{`null`, ""},
		{`{"pad":1e400,"SERVICE":"web","service":"billing"}`, "number 1e400 at $.pad is out of range"},
		{`{"pad":[-1e999]}`, "out of range"},
		{`{"service":"billing"`, "end inside a value"},
		{`{"service":"billing"} {"service":"web"}`, "data after"},
		{`{"service":"billing"}]`, "not readable"},
		{`{"n":1e308,"m":123456789012345678901234567890}`, ""},
	} {
		err := exact.CheckArgKeys([]byte(tc.args))
		switch {
		case tc.keys == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tc.args, err)
		case tc.keys != "" && (!errors.Is(err, exact.ErrAmbiguousArguments) || !strings.Contains(err.Error(), tc.keys)):
			t.Errorf("%s: %v, want ErrAmbiguousArguments naming %s", tc.args, err, tc.keys)
		}
	}
}
