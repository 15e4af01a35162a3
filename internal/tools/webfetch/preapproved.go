package webfetch

import (
	"regexp"
	"strings"
	"sync"
)

// preapprovedSites are the documentation sites Claude Code 2.1.332 fetches
// without asking: a host, or a host and a path prefix.
var preapprovedSites = []string{
	"platform.claude.com", "code.claude.com", "claude.dev", "www.claude.dev", "claude.com/docs",
	"modelcontextprotocol.io", "github.com/anthropics", "github.com/anthropic-experimental",
	"raw.githubusercontent.com/anthropics", "raw.githubusercontent.com/anthropic-experimental", "agentskills.io",
	"docs.python.org", "en.cppreference.com", "docs.oracle.com", "learn.microsoft.com", "developer.mozilla.org",
	"go.dev/doc", "go.dev/ref", "www.php.net", "docs.swift.org", "kotlinlang.org", "ruby-doc.org",
	"doc.rust-lang.org", "www.typescriptlang.org", "react.dev", "angular.io", "vuejs.org", "nextjs.org",
	"expressjs.com", "nodejs.org", "bun.sh", "jquery.com", "getbootstrap.com", "tailwindcss.com", "d3js.org",
	"threejs.org", "redux.js.org", "webpack.js.org", "jestjs.io", "reactrouter.com", "docs.djangoproject.com",
	"flask.palletsprojects.com", "fastapi.tiangolo.com", "pandas.pydata.org", "numpy.org", "www.tensorflow.org",
	"pytorch.org", "scikit-learn.org", "matplotlib.org", "requests.readthedocs.io", "jupyter.org", "laravel.com",
	"symfony.com", "wordpress.org/documentation", "docs.spring.io", "hibernate.org", "tomcat.apache.org",
	"gradle.org", "maven.apache.org", "asp.net", "dotnet.microsoft.com", "blazor.net", "reactnative.dev",
	"docs.flutter.dev", "developer.apple.com", "developer.android.com", "keras.io", "spark.apache.org",
	"huggingface.co/docs", "www.kaggle.com/docs", "www.mongodb.com", "redis.io", "www.postgresql.org",
	"dev.mysql.com", "www.sqlite.org", "graphql.org", "prisma.io", "docs.getdbt.com", "docs.aws.amazon.com",
	"cloud.google.com", "kubernetes.io", "www.docker.com", "www.terraform.io", "www.ansible.com",
	"vercel.com/docs", "docs.stripe.com", "docs.netlify.com", "devcenter.heroku.com", "dev.wix.com/docs",
	"cypress.io", "selenium.dev", "docs.unity.com", "docs.unrealengine.com", "git-scm.com", "nginx.org",
	"httpd.apache.org",
}

// preapprovedSplit splits preapprovedSites into whole
// hosts and hosts with their path prefixes, on first use.
var preapprovedSplit = sync.OnceValues(func() (map[string]bool, map[string][]string) {
	hosts, paths := map[string]bool{}, map[string][]string{}
	for _, site := range preapprovedSites {
		if host, path, ok := strings.Cut(site, "/"); ok {
			paths[host] = append(paths[host], "/"+path)
		} else {
			hosts[site] = true
		}
	}
	return hosts, paths
})

var (
	// encodedSeparator is a slash, backslash or dot written as an escape,
	// which could step out of a preapproved path.
	encodedSeparator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)%(25)*(2f|5c|2e)`) })
	// mainBranchRepo and mainBranchRaw are the only pages of other
	// repositories on github.com and raw.githubusercontent.com that count:
	// a repository's main branch.
	mainBranchRepo = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/[^/]+/[^/]+(/?|/(tree|blob)/main(/.*)?)$`) })
	mainBranchRaw  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/[^/]+/[^/]+/refs/heads/main/.`) })
)

// preapproved reports whether Claude Code fetches the page without asking:
// a preapproved host, or a path under a preapproved prefix. Its answer is
// fetched and summarised without the quoting limits of other pages.
func preapproved(host, path string) bool {
	host = strings.ToLower(host)
	preapprovedHosts, preapprovedPaths := preapprovedSplit()
	if preapprovedHosts[host] {
		return true
	}
	if encodedSeparator().MatchString(path) {
		return false
	}
	for _, prefix := range preapprovedPaths[host] {
		if path != prefix && !strings.HasPrefix(path, prefix+"/") {
			continue
		}
		switch {
		case host == "github.com" && prefix == "/anthropics":
			return true
		case host == "github.com":
			return mainBranchRepo().MatchString(path)
		case host == "raw.githubusercontent.com":
			return mainBranchRaw().MatchString(path)
		}
		return true
	}
	return false
}
