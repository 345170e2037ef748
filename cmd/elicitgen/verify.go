package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/elicitgen/elicitgen/runtime/receipt"
)

// newVerifyCmd is elicitgen verify: receipt.Verify on a file.
func newVerifyCmd() *cobra.Command {
	var (
		keys   []string
		format string
		head   string
	)
	cmd := &cobra.Command{
		Use:   "verify --key PUB.pem RECEIPTS.jsonl",
		Short: "Verify a signed receipt log: every signature, key id and chain link",
		Long: `verify reads a JSONL receipt log (one JWS per line, as a server with
receipts on writes it; see docs/receipts.md) and checks every line: that it
is a receipt, signed with EdDSA by one of the --key public keys under its
key id, and chained to the line before it (its sequence number follows,
and it holds the digest of the receipt before it). A changed byte, a
removed, added or reordered line, a cut last line or a receipt of a key
not given fails, naming the first bad line. Receipts removed from the end
of a log leave a valid shorter log: give --head, the digest of the last
receipt as recorded elsewhere, to catch that.

--key takes a PKIX PEM public key (openssl pkey -in KEY.pem -pubout); give
it once per key the log was signed with, the current one and those
rotated out (a file may hold several). "-" reads the log from stdin.

Exit status: 0 verified, 1 a bad line (named), 2 bad input (no key, an
unreadable key or file).`,
		Example: `  elicitgen verify --key receipts.pub.pem receipts.jsonl
  elicitgen verify --key new.pub.pem --key old.pub.pem --format json receipts.jsonl`,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return withCode(2, fmt.Errorf("elicitgen verify: unknown --format %q (want text or json)", format))
			}
			if len(keys) == 0 {
				return withCode(2, errors.New("elicitgen verify: give the public key with --key PUB.pem"))
			}
			ks, err := receipt.LoadPublicKeys(keys...)
			if err != nil {
				return withCode(2, fmt.Errorf("elicitgen verify: --key %w", err))
			}
			name := args[0]
			var in io.Reader = cmd.InOrStdin()
			if name != "-" {
				f, err := os.Open(name)
				if err != nil {
					return withCode(2, fmt.Errorf("elicitgen verify: %w", err))
				}
				defer f.Close()
				in = f
			}
			rep, err := receipt.Verify(in, ks, receipt.VerifyOptions{Head: head})
			var le *receipt.LineError
			if err != nil && !errors.As(err, &le) {
				return withCode(2, fmt.Errorf("elicitgen verify: %s: %w", name, err))
			}
			out := cmd.OutOrStdout()
			if format == "json" {
				if err := json.NewEncoder(out).Encode(verifyJSON(name, rep, le)); err != nil {
					return err
				}
			} else if le != nil {
				fmt.Fprintf(out, "%s:%d: %s: %s\n", name, le.Line, le.Kind, le.Detail)
			} else {
				fmt.Fprintf(out, "%s: %d receipts verified; last receipt %d, %s\n", name, rep.Receipts, rep.Head.Seq, rep.Head.Digest)
				for _, id := range ks.IDs() {
					if n := rep.KeyIDs[id]; n > 0 {
						fmt.Fprintf(out, "  key %s: %d receipts\n", id, n)
					}
				}
			}
			if le != nil {
				return withCode(1, nil)
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&keys, "key", nil, "PKIX PEM `file` of a public key the log may be signed with (repeat for rotated keys)")
	cmd.Flags().StringVar(&format, "format", "text", "report `format`: text, or json")
	cmd.Flags().StringVar(&head, "head", "", "the `digest` the log's last receipt must have (sha256:...), to catch receipts removed from its end")
	return cmd
}

// verifyReport is elicitgen verify --format json's output.
type verifyReport struct {
	File string `json:"file"`
	OK   bool   `json:"ok"`
	// When OK:
	Receipts int            `json:"receipts,omitempty"`
	Head     *verifyHead    `json:"head,omitempty"`
	Keys     map[string]int `json:"keys,omitempty"`
	// When not:
	Line   int    `json:"line,omitempty"`
	Error  string `json:"error,omitempty"`
	Detail string `json:"detail,omitempty"`
}

type verifyHead struct {
	Seq    uint64 `json:"seq"`
	Digest string `json:"digest"`
}

// verifyErrorCodes are the error words of --format json.
var verifyErrorCodes = map[error]string{
	receipt.ErrMalformed:  "malformed",
	receipt.ErrUnknownKey: "unknown_key",
	receipt.ErrSignature:  "signature",
	receipt.ErrChain:      "chain",
	receipt.ErrTruncated:  "truncated",
}

func verifyJSON(name string, rep *receipt.Report, le *receipt.LineError) verifyReport {
	if le != nil {
		return verifyReport{File: name, Line: le.Line, Error: verifyErrorCodes[le.Kind], Detail: le.Detail}
	}
	return verifyReport{File: name, OK: true, Receipts: rep.Receipts, Head: &verifyHead{Seq: rep.Head.Seq, Digest: rep.Head.Digest}, Keys: rep.KeyIDs}
}
