//go:build linux

package grep

import "syscall"

// openedModTime is the modification time of the open file f, in
// milliseconds, read with fstat; 0 when it cannot be read.
func openedModTime(f rawFile, _ string) float64 {
	var st syscall.Stat_t
	if syscall.Fstat(int(f), &st) != nil {
		return 0
	}
	return float64(st.Mtim.Sec)*1e3 + float64(st.Mtim.Nsec)/1e6
}

// pathModTime is the modification time of the file at path, in milliseconds;
// 0 when it cannot be read. It calls stat directly, without an os.FileInfo.
func pathModTime(path string) float64 {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return 0
	}
	return float64(st.Mtim.Sec)*1e3 + float64(st.Mtim.Nsec)/1e6
}
