package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkIdleRSS reports the resident memory of an idle `reprise daemon`,
// and of a bare nats-server with JetStream on the same kind of store as the
// baseline, both measured in this run.
func BenchmarkIdleRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc; Linux only")
	}
	natsServer, err := filepath.Abs(filepath.Join("..", "..", ".tools", "bin", "nats-server"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("nats-server", func(b *testing.B) {
		if _, err := os.Stat(natsServer); err != nil {
			b.Skip("no nats-server baseline: run scripts/deps")
		}
		for b.Loop() {
			cmd := exec.Command(natsServer, "-js", "-sd", b.TempDir(), "-a", "127.0.0.1", "-p", "-1")
			b.ReportMetric(idleRSS(b, cmd, func() bool { return true }), "rss-MB")
		}
	})
	b.Run("daemon", func(b *testing.B) {
		for b.Loop() {
			home := b.TempDir()
			cmd := exec.Command(binary, "daemon")
			cmd.Env = append(os.Environ(), "REPRISE_HOME="+home)
			ready := func() bool { _, err := os.Stat(filepath.Join(home, "client.json")); return err == nil }
			b.ReportMetric(idleRSS(b, cmd, ready), "rss-MB")
		}
	})
}

// idleRSS starts cmd, waits until ready, lets it idle, and returns its
// resident set in MB.
func idleRSS(b *testing.B, cmd *exec.Cmd, ready func() bool) float64 {
	b.Helper()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for deadline := time.Now().Add(20 * time.Second); !ready(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatal("not ready in 20 s")
		}
	}
	time.Sleep(2 * time.Second)
	kb, err := vmRSS(cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	return float64(kb) / 1024
}

func vmRSS(pid int) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}
