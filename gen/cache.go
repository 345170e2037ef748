package gen

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
)

// The output cache maps a package's model to the files generated from it,
// like the go command's build cache: regenerating an unchanged package
// costs a hash and a file read instead of rendering and formatting its
// code again. Config.CacheDir turns it on; Config.CacheSalt must identify
// the generator build (the elicitgen command uses a digest of its own
// executable), so that a different elicitgen never reuses an entry. check
// never uses it: it always regenerates.

const cacheMagic = "elicitgen-cache-v1\n"

// checksum guards cache entries against accidental corruption (a torn
// write, a flipped bit); the cache is the user's own, like the go
// command's, not a trust boundary.
func checksum(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

// cacheKey digests everything the output depends on: the salt and the
// package's model.
func cacheKey(salt string, pkg *Package) (string, error) {
	d := newDigest()
	d.str(cacheMagic)
	d.str(salt)
	d.pkg(pkg)
	return hex.EncodeToString([]byte(d.sum())), nil
}

func cachePath(dir, key string) string { return filepath.Join(dir, key[:2], key) }

// readCache returns the Go and schema files stored under key. A missing,
// short or corrupted entry is a miss, never an error.
func readCache(dir, key string) (goSrc, schema []byte, ok bool) {
	b, err := os.ReadFile(cachePath(dir, key))
	if err != nil || !bytes.HasPrefix(b, []byte(cacheMagic)) {
		return nil, nil, false
	}
	b = b[len(cacheMagic):]
	if len(b) < 4+8 {
		return nil, nil, false
	}
	sum, body := binary.BigEndian.Uint32(b[:4]), b[4:]
	if checksum(body) != sum {
		return nil, nil, false
	}
	n := binary.BigEndian.Uint64(body[:8])
	body = body[8:]
	if n > uint64(len(body)) {
		return nil, nil, false
	}
	return body[:n], body[n:], true
}

// writeCache stores the files under key, atomically. Failing to write the
// cache is not an error: the next run regenerates.
func writeCache(dir, key string, goSrc, schema []byte) error {
	path := cachePath(dir, key)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	body := binary.BigEndian.AppendUint64(nil, uint64(len(goSrc)))
	body = append(append(body, goSrc...), schema...)
	entry := binary.BigEndian.AppendUint32([]byte(cacheMagic), checksum(body))
	entry = append(entry, body...)
	if err := writeAtomic(path, entry); err != nil {
		return errors.Join(errors.New("writing the output cache"), err)
	}
	return nil
}

// emitCached returns the package's two files from the cache when cfg has
// one and the entry is there, else emits them (and stores them).
func emitCached(cfg *Config, pkg *Package) (goSrc, schema []byte, err error) {
	var key string
	if cfg.CacheDir != "" && cfg.CacheSalt != "" {
		if key, err = cacheKey(cfg.CacheSalt, pkg); err == nil {
			if g, s, ok := readCache(cfg.CacheDir, key); ok {
				return g, s, nil
			}
		}
	}
	if goSrc, err = EmitGo(pkg); err != nil {
		return nil, nil, err
	}
	if schema, err = EmitSchemaFile(pkg); err != nil {
		return nil, nil, err
	}
	if key != "" {
		_ = writeCache(cfg.CacheDir, key, goSrc, schema) // best effort
	}
	return goSrc, schema, nil
}
