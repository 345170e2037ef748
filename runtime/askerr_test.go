package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type triage struct{ KR string }

func triageForm() *Form {
	return NewForm((*triage)(nil), &Schema{Name: "Triage", Properties: []Property{{Name: "kr", Kind: KindEnum, Dynamic: true, Required: true}}}, "KR")
}

// TestAskErrorsSayEachPrefixOnce: errors of Ask name the form once and say
// "elicit:" once, and still match their sentinels.
func TestAskErrorsSayEachPrefixOnce(t *testing.T) {
	_, err := Ask[triage](context.Background(), AskerFunc(func(context.Context, *Request) (*Response, error) {
		return &Response{Action: ActionDecline}, nil
	}), triageForm(), "pick")
	if err == nil {
		t.Fatal("no error without options")
	}
	want := "elicit: ask Triage: options not supplied: kr: options must be supplied with WithOptions"
	if err.Error() != want {
		t.Fatalf("error %q, want %q", err, want)
	}
	if !errors.Is(err, ErrMissingOptions) || !errors.Is(err, ErrInvalidContent) {
		t.Fatalf("%v does not match ErrMissingOptions and ErrInvalidContent", err)
	}
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field("kr") == nil {
		t.Fatalf("%v: no field error for kr", err)
	}
}

// TestWithOptionsDuplicates: the same value twice is an error.
func TestWithOptionsDuplicates(t *testing.T) {
	_, err := Ask[triage](context.Background(), AskerFunc(func(context.Context, *Request) (*Response, error) {
		return &Response{Action: ActionDecline}, nil
	}), triageForm(), "pick", WithOptions("kr", Option{Value: "a"}, Option{Value: "b"}, Option{Value: "a", Title: "A again"}))
	if err == nil || !strings.Contains(err.Error(), `WithOptions: value "a" given twice`) {
		t.Fatalf("duplicate options: %v", err)
	}
	if strings.Count(err.Error(), "elicit:") != 1 || strings.Count(err.Error(), "Triage") != 1 {
		t.Fatalf("prefix repeated: %q", err)
	}
}
