package prompt

import "strings"

// envSection describes where the agent is running: directories, git state,
// platform, date and model. Lines whose value is unknown are left out.
func envSection(opts Options, cwd string, h host) string {
	lines := []string{"# Environment", "", "<env>", "Working directory: " + cwd}
	if len(opts.AdditionalDirs) > 0 {
		dirs := make([]string, len(opts.AdditionalDirs))
		for i, d := range opts.AdditionalDirs {
			dirs[i] = absDir(d)
		}
		lines = append(lines, "Additional working directories: "+strings.Join(dirs, ", "))
	}
	if repo, ok := findGit(cwd); ok {
		lines = append(lines, "Git repository: yes (root: "+repo.root+")")
		if repo.branch != "" {
			lines = append(lines, "Git branch: "+repo.branch)
		} else {
			lines = append(lines, "Git HEAD: detached at "+repo.commit)
		}
	} else {
		lines = append(lines, "Git repository: no")
	}
	lines = append(lines, "Platform: "+h.platform)
	if h.osVersion != "" {
		lines = append(lines, "OS version: "+h.osVersion)
	}
	if !opts.Now.IsZero() {
		lines = append(lines, "Today's date: "+opts.Now.Format("2006-01-02"))
	}
	if opts.Model != "" {
		lines = append(lines, "Model: "+opts.Model)
	}
	return strings.Join(append(lines, "</env>"), "\n")
}
