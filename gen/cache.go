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

// The output cache keeps generated files the way the go command's build
// cache keeps build results, at two levels:
//
//   - by raw inputs (rawcache.go): the package's files, the identity of
//     its imports' export data, the build configuration and the
//     generator build. A hit returns the whole Result without parsing,
//     type-checking or analysing anything; it is checked before the
//     typed load.
//   - by model (this file): when the raw inputs changed but the checked
//     model did not (a function body was edited), the files are not
//     rendered and formatted again.
//
// Config.CacheDir turns both on; Config.CacheSalt must identify the
// generator build (the elicitgen command uses a digest of its own
// executable), so that a different elicitgen never reuses an entry. check
// never uses the cache: it always regenerates.

const cacheMagic = "elicitgen-cache-v2\n"

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

// readCache returns the sections stored under key. A missing, short or
// corrupted entry is a miss, never an error.
func readCache(dir, key string) (sections [][]byte, ok bool) {
	b, err := os.ReadFile(cachePath(dir, key))
	if err != nil || !bytes.HasPrefix(b, []byte(cacheMagic)) {
		return nil, false
	}
	b = b[len(cacheMagic):]
	if len(b) < 4 {
		return nil, false
	}
	sum, body := binary.BigEndian.Uint32(b[:4]), b[4:]
	if checksum(body) != sum {
		return nil, false
	}
	for len(body) > 0 {
		n, k := binary.Uvarint(body)
		if k <= 0 || n > uint64(len(body)-k) {
			return nil, false
		}
		sections = append(sections, body[k:k+int(n)])
		body = body[k+int(n):]
	}
	return sections, true
}

// writeCache stores the sections under key, atomically. Failing to write
// the cache is not an error: the next run regenerates.
func writeCache(dir, key string, sections ...[]byte) error {
	path := cachePath(dir, key)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var body []byte
	for _, s := range sections {
		body = binary.AppendUvarint(body, uint64(len(s)))
		body = append(body, s...)
	}
	entry := binary.BigEndian.AppendUint32([]byte(cacheMagic), checksum(body))
	entry = append(entry, body...)
	if err := replaceFile(path, entry, false); err != nil {
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
			if sec, ok := readCache(cfg.CacheDir, key); ok && len(sec) == 2 {
				return sec[0], sec[1], nil
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
