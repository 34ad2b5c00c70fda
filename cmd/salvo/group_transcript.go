package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/salvo-game/salvo/fairness"
)

// eachInput calls f for every input of every envelope of a transcript,
// with the size of the input's own JSON.
func eachInput(path string, f func(in fairness.WireInput, size int64)) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	_, tr, err := fairness.ReadTranscript(file)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for {
		line, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if line.Envelope == nil {
			continue
		}
		body, err := fairness.DecodeBody(line.Envelope.Body)
		if err != nil {
			return fmt.Errorf("%s line %d: %w", path, line.No, err)
		}
		for _, in := range body.Inputs {
			b, err := json.Marshal(in)
			if err != nil {
				return fmt.Errorf("%s line %d: %w", path, line.No, err)
			}
			f(in, int64(len(b)))
		}
	}
}
