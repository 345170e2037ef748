package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime/receipt"
)

// receiptOptions are the flags of signed receipts: where they go and the
// key that signs them.
type receiptOptions struct{ dest, key string }

// receiptFlags defines --receipts and --receipt-key.
func receiptFlags(fs *flag.FlagSet) *receiptOptions {
	o := &receiptOptions{}
	fs.StringVar(&o.dest, "receipts", "", "write a signed receipt of every decided question to this JSONL `file` (or redis://HOST:PORT/DB: one Redis list every instance shares); needs --receipt-key; check it with elicitgen verify")
	fs.StringVar(&o.key, "receipt-key", "", "PKCS#8 PEM `file` of the Ed25519 key that signs receipts (openssl genpkey -algorithm ed25519)")
	return o
}

// open returns the receipt log the flags ask for (nil when they ask for
// none) and its closer. Any problem is an error, and the server does not
// start: a missing, unreadable or wrong key, a file that cannot be
// written or whose last line is cut, a Redis that does not answer or may
// evict receipts.
func (o *receiptOptions) open(ctx context.Context) (*receipt.Log, func(), error) {
	switch {
	case o.dest == "" && o.key == "":
		return nil, func() {}, nil
	case o.dest == "":
		return nil, nil, errors.New("--receipt-key without --receipts: say where the receipts go (--receipts FILE)")
	case o.key == "":
		return nil, nil, errors.New("--receipts needs --receipt-key KEY.pem (PKCS#8 PEM, Ed25519): receipts are signed")
	}
	signer, err := receipt.LoadPrivateKey(o.key)
	if err != nil {
		return nil, nil, fmt.Errorf("--receipt-key: %w", err)
	}
	var sink receipt.Sink
	if strings.HasPrefix(o.dest, "redis://") || strings.HasPrefix(o.dest, "rediss://") {
		rs, err := receipt.OpenRedis(o.dest, "")
		if err != nil {
			return nil, nil, fmt.Errorf("--receipts: %w", err)
		}
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := rs.Check(cctx); err != nil {
			rs.Close()
			return nil, nil, fmt.Errorf("--receipts: %w", err)
		}
		sink = rs
	} else {
		fs, err := receipt.OpenFile(o.dest)
		if err != nil {
			return nil, nil, fmt.Errorf("--receipts: %w", err)
		}
		sink = fs
	}
	l, err := receipt.NewLog(ctx, signer, sink)
	if err != nil {
		if c, ok := sink.(interface{ Close() error }); ok {
			c.Close()
		}
		return nil, nil, fmt.Errorf("--receipts: %w", err)
	}
	h := l.Head()
	log.Printf("receipts: signing with key %s, writing to %s from receipt %d", signer.KeyID(), redactURL(o.dest), h.Seq+1)
	return l, func() { l.Close() }, nil
}

// redactURL hides the password of a redis:// URL in a log line.
func redactURL(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	userinfo, host, ok := strings.Cut(rest, "@")
	if !ok {
		return s
	}
	if user, _, ok := strings.Cut(userinfo, ":"); ok {
		return scheme + "://" + user + ":xxxxx@" + host
	}
	return s
}
