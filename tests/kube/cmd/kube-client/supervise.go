package main

// supervise runs etcd or kube-apiserver for a test run so that the server never outlives the
// Node process that started it, even when that process is killed without a chance to clean up:
// the child gets SIGKILL when this supervisor dies (Pdeathsig), and the supervisor exits as soon as
// its own parent is gone. SIGTERM and SIGINT are passed on to the child.

import (
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

func supervise(command string, args []string) error {
	// Pdeathsig fires when the thread that started the child exits: keep this goroutine on it.
	runtime.LockOSThread()
	parent := os.Getppid()
	cmd := exec.Command(command, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if exit, ok := err.(*exec.ExitError); ok {
				os.Exit(exit.ExitCode())
			}
			return err
		case s := <-signals:
			_ = cmd.Process.Signal(s)
		case <-tick.C:
			if os.Getppid() != parent {
				_ = cmd.Process.Kill()
				os.Exit(1)
			}
		}
	}
}
