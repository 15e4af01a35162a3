//go:build linux

package filewalk

import (
	"io/fs"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// listDir reads the entries of the directory at path with getdents64 into
// entries, reusing its storage and buf. Going through os.File would cost a
// poller registration and four fcntl calls per directory.
func listDir(path string, buf []byte, entries []dirent) ([]dirent, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return entries, err
	}
	defer syscall.Close(fd)
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return entries, err
		}
		if n <= 0 {
			return entries, nil
		}
		entries = parseDirents(path, buf[:n], entries)
	}
}

// parseDirents decodes linux_dirent64 records: inode, offset, record length,
// type and a NUL-terminated name.
func parseDirents(dir string, buf []byte, entries []dirent) []dirent {
	for len(buf) >= 19 {
		reclen := int(*(*uint16)(unsafe.Pointer(&buf[16])))
		if reclen < 19 || reclen > len(buf) {
			break
		}
		typ := buf[18]
		name := buf[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		buf = buf[reclen:]
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		e := dirent{name: string(name)}
		switch typ {
		case syscall.DT_DIR:
			e.typ = fs.ModeDir
		case syscall.DT_REG:
			e.typ = 0
		case syscall.DT_LNK:
			e.typ = fs.ModeSymlink
		case syscall.DT_UNKNOWN:
			info, err := os.Lstat(dir + "/" + e.name)
			if err != nil {
				continue
			}
			e.typ = info.Mode().Type()
		default:
			e.typ = fs.ModeIrregular
		}
		entries = append(entries, e)
	}
	return entries
}

// ModTime is the file's modification time, read with lstat directly.
func (f File) ModTime() (time.Time, error) {
	var st syscall.Stat_t
	if err := syscall.Lstat(f.Path(), &st); err != nil {
		return time.Time{}, err
	}
	return time.Unix(st.Mtim.Sec, st.Mtim.Nsec), nil
}
