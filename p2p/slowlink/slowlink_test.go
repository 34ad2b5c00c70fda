package slowlink

import (
	"bytes"
	"crypto/rand"
	"io"
	"net"
	"testing"
	"time"
)

// echoServer answers every connection with what it reads.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// TestRoundTripTakesTheDelayBothWays: an echo through the proxy is never
// back before twice the one-way delay, and comes back whole and in order,
// also when it is far bigger than one chunk.
func TestRoundTripTakesTheDelayBothWays(t *testing.T) {
	const delay = 40 * time.Millisecond
	p, err := Listen(echoServer(t), delay)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, size := range []int{1, 1000, 5 * chunkSize} {
		msg := make([]byte, size)
		_, _ = rand.Read(msg)
		start := time.Now()
		go func() { _, _ = c.Write(msg) }()
		got := make([]byte, size)
		if _, err := io.ReadFull(c, got); err != nil {
			t.Fatal(err)
		}
		if rtt := time.Since(start); rtt < 2*delay {
			t.Fatalf("%d bytes back after %v, before two one-way delays (%v)", size, rtt, 2*delay)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("%d bytes: echo differs", size)
		}
	}
}

// TestCloseEndsEveryConnection: Close returns with connections still open,
// and their ends see the connection closed.
func TestCloseEndsEveryConnection(t *testing.T) {
	p, err := Listen(echoServer(t), time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", p.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := io.ReadFull(c, b); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Read(b); err == nil {
		t.Fatal("read after Close succeeded")
	}
}

func TestNegativeDelayIsRefused(t *testing.T) {
	if _, err := Listen("127.0.0.1:1", -time.Second); err == nil {
		t.Fatal("negative delay accepted")
	}
}
