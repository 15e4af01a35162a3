package shell

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// signalSession sends sig to every process of the sessions or groups sids:
// the process groups, and children that moved to a group of their own (`set
// -m` jobs) but stayed in the command's session. Only a process that starts a
// new session escapes it. It returns the processes it found.
func signalSession(sig syscall.Signal, sids ...int) []int {
	for _, sid := range sids {
		_ = syscall.Kill(-sid, sig)
	}
	var found []int
	for _, p := range processes() {
		if slices.Contains(sids, p.session) || slices.Contains(sids, p.group) {
			_ = syscall.Kill(p.pid, sig)
			found = append(found, p.pid)
		}
	}
	return found
}

// anyAlive reports whether one of pids still runs in the session or group sid;
// zombies waiting for init to reap them do not count, nor a pid reused by
// another process since.
func anyAlive(sid int, pids []int) bool {
	for _, pid := range pids {
		if p, ok := readStat(pid); ok && p.state != 'Z' && (p.session == sid || p.group == sid) {
			return true
		}
	}
	return false
}

// groupAlive reports whether a process of the session or group sid is still
// running; zombies do not count.
func groupAlive(sid int) bool {
	for _, p := range processes() {
		if (p.session == sid || p.group == sid) && p.state != 'Z' {
			return true
		}
	}
	return false
}

// procStat is what /proc/<pid>/stat says about a process.
type procStat struct {
	pid, group, session int
	state               byte
}

func processes() []procStat {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var list []procStat
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readStat(pid); ok {
			list = append(list, p)
		}
	}
	return list
}

// readStat parses /proc/<pid>/stat, whose second field (the command name) may
// contain spaces and parentheses, so the fields count from the last ')'.
func readStat(pid int) (procStat, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	s := string(stat)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return procStat{}, false
	}
	// After the name: state, ppid, pgrp, session.
	fields := strings.Fields(s[end+1:])
	if len(fields) < 4 || len(fields[0]) != 1 {
		return procStat{}, false
	}
	group, err1 := strconv.Atoi(fields[2])
	session, err2 := strconv.Atoi(fields[3])
	if err1 != nil || err2 != nil {
		return procStat{}, false
	}
	return procStat{pid: pid, group: group, session: session, state: fields[0][0]}, true
}
