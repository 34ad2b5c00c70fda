package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// EncodeMove encodes a game's move (or any other value carried in a
// transcript) as compact JSON. Games use it so that moves stay readable in
// transcripts.
func EncodeMove(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode move: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// MustEncodeMove is [EncodeMove] for values that always encode (plain
// structs of numbers, strings and slices); it panics otherwise.
func MustEncodeMove(v any) []byte {
	b, err := EncodeMove(v)
	if err != nil {
		panic(err)
	}
	return b
}

// DecodeMove decodes a move strictly: unknown fields and trailing data are
// errors wrapping [ErrIllegal], since a move from the network may be anything.
func DecodeMove(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Illegal("undecodable move: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Illegal("undecodable move: trailing data")
	}
	return nil
}
