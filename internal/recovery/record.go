package recovery

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strconv"
	"unicode/utf8"
)

// recordVersion is the version of the record envelope and of the JSON
// payloads inside it. A record with another version is not guessed at: it is
// reported as corrupt (a future migration would dispatch on it here).
const recordVersion byte = 1

// headerLen is the envelope header: version (1 byte) + CRC-32C (4 bytes, big endian).
const headerLen = 5

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sum is the record checksum. It covers the bucket name and the key as well
// as the version and payload, so a value moved to another key (or bucket) by
// damage is detected, not just a flipped byte.
func sum(bucket, key []byte, version byte, payload []byte) uint32 {
	h := crc32.New(castagnoli)
	h.Write(bucket)
	h.Write([]byte{0})
	h.Write(key)
	h.Write([]byte{0, version})
	h.Write(payload)
	return h.Sum32()
}

// seal wraps payload in the envelope: version, checksum, payload.
func seal(bucket, key, payload []byte) []byte {
	out := make([]byte, headerLen+len(payload))
	out[0] = recordVersion
	binary.BigEndian.PutUint32(out[1:5], sum(bucket, key, recordVersion, payload))
	copy(out[headerLen:], payload)
	return out
}

// open checks the envelope of raw (stored under bucket/key) and returns the
// payload, or a *CorruptError naming the bucket and key.
func unseal(bucket, key, raw []byte) ([]byte, error) {
	if len(raw) < headerLen {
		return nil, corrupt(bucket, key, "record shorter than its %d-byte header (%d bytes)", headerLen, len(raw))
	}
	if raw[0] != recordVersion {
		return nil, corrupt(bucket, key, "record version %d, want %d", raw[0], recordVersion)
	}
	payload := raw[headerLen:]
	if got, want := binary.BigEndian.Uint32(raw[1:5]), sum(bucket, key, raw[0], payload); got != want {
		return nil, corrupt(bucket, key, "checksum %08x, content sums to %08x", got, want)
	}
	return payload, nil
}

// encode seals the JSON encoding of v.
func encode(bucket, key []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("recovery: encode %s/%s: %w", bucket, keyString(key), err)
	}
	return seal(bucket, key, b), nil
}

// decode unseals raw and decodes its JSON payload into v.
func decode(bucket, key, raw []byte, v any) error {
	payload, err := unseal(bucket, key, raw)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(payload, v); err != nil {
		return corrupt(bucket, key, "payload does not decode: %v", err)
	}
	return nil
}

func corrupt(bucket, key []byte, format string, args ...any) error {
	return &CorruptError{Bucket: string(bucket), Key: keyString(key), Reason: fmt.Sprintf(format, args...)}
}

// keyString prints a key: 8-byte ring keys as their sequence number, text
// keys as text, anything else in hex.
func keyString(k []byte) string {
	if len(k) == 8 && k[0] == 0 {
		return "#" + strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
	}
	if utf8.Valid(k) {
		printable := true
		for _, r := range string(k) {
			if r < 0x20 || r == 0x7f {
				printable = false
				break
			}
		}
		if printable {
			return string(k)
		}
	}
	return fmt.Sprintf("%x", k)
}

func seqKey(n uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return k[:]
}
