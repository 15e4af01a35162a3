package fleet

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// transcriptName is the name of a task's transcript in TranscriptBucket.
func transcriptName(taskID string) string { return taskID + ".jsonl" }

// fetchTranscript makes a task's transcript ready at path for a run to
// resume: the one an earlier attempt on this machine left there, else the
// one in the object store. It reports whether there is one.
func (f *Fleet) fetchTranscript(ctx context.Context, taskID, path string) (bool, error) {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.Size() > 0:
		return true, nil
	case err == nil:
		// An attempt that died before its first line: start afresh.
		if err := os.Remove(path); err != nil {
			return false, fmt.Errorf("remove an empty transcript: %w", err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("transcript: %w", err)
	}
	info, err := f.transcripts.GetInfo(ctx, transcriptName(taskID))
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up the transcript of %s: %w", taskID, err)
	}
	if info.Size == 0 {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("transcript folder: %w", err)
	}
	if err := f.transcripts.GetFile(ctx, transcriptName(taskID), path); err != nil {
		return false, fmt.Errorf("download the transcript of %s: %w", taskID, err)
	}
	return true, nil
}

// uploadMark is what was last uploaded of a transcript.
type uploadMark struct {
	size int64
	mod  time.Time
}

// uploadTranscript stores a task's transcript in the object store when it
// changed since mark, and moves mark.
func (f *Fleet) uploadTranscript(ctx context.Context, taskID, path string, mark *uploadMark) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	if st.Size() == 0 || st.Size() == mark.size && st.ModTime().Equal(mark.mod) {
		return nil
	}
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	defer file.Close()
	meta := jetstream.ObjectMeta{Name: transcriptName(taskID), Description: "transcript of task " + taskID}
	if _, err := f.transcripts.Put(ctx, meta, file); err != nil {
		return fmt.Errorf("upload the transcript of %s: %w", taskID, err)
	}
	*mark = uploadMark{size: st.Size(), mod: st.ModTime()}
	return nil
}

// Transcript returns the stored transcript of a task.
func (f *Fleet) Transcript(ctx context.Context, taskID string) ([]byte, error) {
	data, err := f.transcripts.GetBytes(ctx, transcriptName(taskID))
	if err != nil {
		return nil, fmt.Errorf("transcript of %s: %w", taskID, err)
	}
	return data, nil
}
