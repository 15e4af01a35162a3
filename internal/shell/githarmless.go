package shell

import (
	"strings"
	"sync"
)

// harmlessKeys are the configuration keys a repository may set that name no
// program and make git run none, in gitRule's pattern form, by section: the
// variables git 2.55 documents (`git help --config`, Documentation/config),
// less the program keys of gitRules and those still to be judged
// (guitool.*, gitcvs.*: git gui's menu commands, git cvsserver's database),
// and the data keys git-lfs writes into the clones it fetches. A whole
// section is taken only where its keys are settings of git's own code that
// cannot name a program (advice, colours, fsck messages, curl options,
// maintenance tasks, server-side receive settings, ...); elsewhere each key
// is named, since git has added program keys to old sections
// (gc.recentObjectsHook, sendemail.headerCmd, alias.<name>.command).
//
// A repository key that is neither here nor in gitRules is unknown: git of a
// later version, or a tool git starts (git-lfs reads lfs.customtransfer.*
// and lfs.extension.*), may run a program because of it.
var harmlessKeys = sync.OnceValue(func() map[string][]string {
	return bySection(strings.Fields(`
	add.ignoreerrors
	advice.*
	am.keepcr am.messageid am.threeway
	apply.ignorewhitespace apply.whitespace
	attr.tree
	author.email author.name committer.email committer.name
	bitmappseudomerge.*.*
	blame.blankboundary blame.coloring blame.date blame.ignorerevsfile blame.markignoredlines
	blame.markunblamablelines blame.showemail blame.showroot
	branch.autosetupmerge branch.autosetuprebase branch.sort branch.*.description branch.*.merge
	branch.*.mergeoptions branch.*.pushremote branch.*.rebase branch.*.remote
	bundle.*
	checkout.defaultremote checkout.guess checkout.thresholdforparallelism checkout.workers
	clean.requireforce
	clone.defaultremotename clone.filtersubmodules clone.rejectshallow
	color.*
	column.*
	commit.cleanup commit.gpgsign commit.status commit.template commit.verbose
	commitgraph.changedpaths commitgraph.changedpathsversion commitgraph.generationversion
	commitgraph.maxnewfilters commitgraph.readchangedpaths
	completion.commands
	core.abbrev core.alternaterefsprefixes core.attributesfile core.autocrlf core.bare
	core.bigfilethreshold core.checkroundtripencoding core.checkstat core.commentchar
	core.commentstring core.commitgraph core.compression core.createobject core.deltabasecachelimit
	core.eol core.excludesfile core.filemode core.filesreflocktimeout core.fscache
	core.fsmonitorhookversion core.fsync core.fsyncmethod core.fsyncobjectfiles core.hidedotfiles
	core.ignorecase core.ignorestat core.lockfilepid core.logallrefupdates core.longpaths
	core.loosecompression core.maxtreedepth core.multipackindex core.notesref core.packedgitlimit
	core.packedgitwindowsize core.packedrefstimeout core.precomposeunicode core.prefersymlinkrefs
	core.preloadindex core.protecthfs core.protectntfs core.quotepath core.repositoryformatversion
	core.safecrlf core.sharedrepository core.sparsecheckout core.sparsecheckoutcone core.splitindex
	core.symlinks core.trustctime core.unsetenvvars core.untrackedcache core.usereplacerefs
	core.warnambiguousrefs core.whitespace core.worktree
	credential.interactive credential.protectprotocol credential.sanitizeprompt credential.usehttppath
	credential.username credential.*.interactive credential.*.usehttppath credential.*.username
	credentialcache.ignoresighup credentialstore.locktimeoutms
	diff.algorithm diff.autorefreshindex diff.colormoved diff.colormovedws diff.context diff.dirstat
	diff.dstprefix diff.guitool diff.ignoresubmodules diff.indentheuristic diff.interhunkcontext
	diff.mnemonicprefix diff.noprefix diff.orderfile diff.relative diff.renamelimit diff.renames
	diff.srcprefix diff.statgraphwidth diff.statnamewidth diff.submodule diff.suppressblankempty
	diff.tool diff.trustexitcode diff.wordregex diff.wserrorhighlight diff.*.binary
	diff.*.cachetextconv diff.*.funcname diff.*.trustexitcode diff.*.wordregex diff.*.xfuncname
	difftool.guidefault difftool.prompt difftool.trustexitcode
	extensions.*
	fastimport.unpacklimit
	feature.experimental feature.manyfiles
	fetch.all fetch.bundlecreationtoken fetch.bundleuri fetch.fsck.* fetch.fsckobjects
	fetch.negotiationalgorithm fetch.output fetch.parallel fetch.prune fetch.prunetags
	fetch.recursesubmodules fetch.showforcedupdates fetch.unpacklimit fetch.writecommitgraph
	format.attach format.cc format.commitlistformat format.coverfromdescription format.coverletter
	format.encodeemailheaders format.filenamemaxlength format.forceinbodyfrom format.from
	format.headers format.mboxrd format.noprefix format.notes format.numbered format.outputdirectory
	format.pretty format.signoff format.signature format.signaturefile format.subjectprefix
	format.suffix format.thread format.to format.useautobase
	fsck.*
	fsmonitor.allowremote fsmonitor.socketdir
	gc.aggressivedepth gc.aggressivewindow gc.auto gc.autodetach gc.autopacklimit gc.bigpackthreshold
	gc.cruftpacks gc.logexpiry gc.maxcruftsize gc.packrefs gc.pruneexpire gc.reflogexpire
	gc.reflogexpireunreachable gc.repackfilter gc.repackfilterto gc.rerereresolved
	gc.rerereunresolved gc.worktreepruneexpire gc.writecommitgraph gc.*.reflogexpire
	gc.*.reflogexpireunreachable
	gitweb.avatar gitweb.blame gitweb.category gitweb.description gitweb.grep gitweb.highlight
	gitweb.owner gitweb.patches gitweb.pickaxe gitweb.remote_heads gitweb.showsizes gitweb.snapshot
	gitweb.url
	gpg.format gpg.mintrustlevel gpg.ssh.allowedsignersfile gpg.ssh.revocationfile
	grep.column grep.extendedregexp grep.fallbacktonoindex grep.fullname grep.linenumber
	grep.patterntype grep.threads
	gui.*
	help.autocorrect help.browser help.format help.htmlpath
	hook.jobs hook.*.event hook.*.jobs hook.*.parallel
	http.*
	i18n.commitencoding i18n.logoutputencoding
	imap.authmethod imap.folder imap.host imap.pass imap.port imap.preformattedhtml imap.sslverify
	imap.user
	include.path includeif.*.path
	index.recordendofindexentries index.recordoffsettable index.skiphash index.sparse index.threads
	index.version
	init.defaultbranch init.defaultobjectformat init.defaultrefformat init.defaultsubmodulepathconfig
	init.templatedir
	instaweb.browser instaweb.local instaweb.port
	interactive.singlekey
	lfs.repositoryformatversion lfs.*.access lfs.*.locksverify
	log.abbrevcommit log.date log.decorate log.diffmerges log.excludedecoration log.follow
	log.graphcolors log.initialdecorationset log.mailmap log.showroot log.showsignature
	lsrefs.unborn
	mailinfo.scissors
	mailmap.blob mailmap.file
	maintenance.*
	man.viewer
	merge.autostash merge.branchdesc merge.conflictstyle merge.defaulttoupstream
	merge.directoryrenames merge.ff merge.guitool merge.log merge.renamelimit merge.renames
	merge.renormalize merge.stat merge.suppressdest merge.tool merge.verbosity merge.verifysignatures
	merge.*.name merge.*.recursive
	mergetool.guidefault mergetool.hideresolved mergetool.keepbackup mergetool.keeptemporaries
	mergetool.prompt mergetool.writetotemp mergetool.meld.hasoutput mergetool.meld.useautomerge
	mergetool.*.hideresolved mergetool.*.layout mergetool.*.trustexitcode
	notes.displayref notes.mergestrategy notes.rewritemode notes.rewriteref notes.rewrite.*
	notes.*.mergestrategy
	pack.allowpackreuse pack.compression pack.deltacachelimit pack.deltacachesize pack.depth
	pack.indexversion pack.island pack.islandcore pack.packsizelimit pack.preferbitmaptips
	pack.readreverseindex pack.threads pack.usebitmapboundarytraversal pack.usebitmaps
	pack.usepathwalk pack.usesparse pack.window pack.windowmemory pack.writebitmaphashcache
	pack.writebitmaplookuptable pack.writereverseindex
	pretty.*
	promisor.acceptfromserver promisor.advertise promisor.checkfields promisor.quiet
	promisor.sendfields promisor.storefields
	protocol.allow protocol.version protocol.*.allow
	pull.autostash pull.ff pull.octopus pull.rebase pull.twohead
	push.autosetupremote push.default push.followtags push.gpgsign push.negotiate push.pushoption
	push.recursesubmodules push.usebitmaps push.useforceifincludes
	rebase.abbreviatecommands rebase.autosquash rebase.autostash rebase.backend rebase.forkpoint
	rebase.instructionformat rebase.maxlabellength rebase.missingcommitscheck rebase.rebasemerges
	rebase.reschedulefailedexec rebase.stat rebase.updaterefs
	receive.*
	reftable.*
	remote.pushdefault remote.*.fetch remote.*.followremotehead remote.*.mirror
	remote.*.negotiationinclude remote.*.negotiationrestrict remote.*.partialclonefilter
	remote.*.promisor remote.*.proxy remote.*.proxyauthmethod remote.*.prune remote.*.prunetags
	remote.*.push remote.*.serveroption remote.*.skipdefaultupdate remote.*.skipfetchall
	remote.*.tagopt
	remotes.*
	repack.cruftdepth repack.cruftthreads repack.cruftwindow repack.cruftwindowmemory
	repack.midxmustcontaincruft repack.midxnewlayerthreshold repack.midxsplitfactor
	repack.packkeptobjects repack.updateserverinfo repack.usedeltabaseoffset repack.usedeltaislands
	repack.writebitmaps
	replay.refaction
	rerere.autoupdate rerere.enabled
	revert.reference
	safe.barerepository safe.directory
	sendemail.aliasesfile sendemail.aliasfiletype sendemail.annotate sendemail.assume8bitencoding
	sendemail.bcc sendemail.cc sendemail.cccover sendemail.chainreplyto sendemail.composeencoding
	sendemail.confirm sendemail.envelopesender sendemail.forbidsendmailvariables sendemail.from
	sendemail.identity sendemail.imapsentfolder sendemail.mailmap sendemail.mailmap.blob
	sendemail.mailmap.file sendemail.multiedit sendemail.outlookidfix sendemail.signedoffbycc
	sendemail.signedoffcc sendemail.smtpauth sendemail.smtpbatchsize sendemail.smtpdomain
	sendemail.smtpencryption sendemail.smtppass sendemail.smtprelogindelay sendemail.smtpserveroption
	sendemail.smtpserverport sendemail.smtpsslcertpath sendemail.smtpsslclientcert
	sendemail.smtpsslclientkey sendemail.smtpuser sendemail.suppresscc sendemail.suppressfrom
	sendemail.thread sendemail.to sendemail.tocover sendemail.transferencoding sendemail.useimaponly
	sendemail.validate sendemail.xmailer
	showbranch.default
	sideband.allowcontrolcharacters sideband.*.*
	sparse.expectfilesoutsideofpatterns
	splitindex.maxpercentchange splitindex.sharedindexexpire
	ssh.variant
	stash.index stash.showincludeuntracked stash.showpatch stash.showstat
	status.aheadbehind status.branch status.comparebranches status.displaycommentprefix
	status.relativepaths status.renamelimit status.renames status.short status.showstash
	status.showuntrackedfiles status.submodulesummary
	submodule.active submodule.alternateerrorstrategy submodule.alternatelocation submodule.fetchjobs
	submodule.propagatebranches submodule.recurse submodule.*.active submodule.*.branch
	submodule.*.fetchrecursesubmodules submodule.*.gitdir submodule.*.ignore submodule.*.url
	tag.forcesignannotated tag.gpgsign tag.sort
	tar.umask
	trace2.*
	trailer.ifexists trailer.ifmissing trailer.separators trailer.where trailer.*.ifexists
	trailer.*.ifmissing trailer.*.key trailer.*.where
	transfer.advertiseobjectinfo transfer.advertisesid transfer.bundleuri transfer.credentialsinurl
	transfer.fsckobjects transfer.hiderefs transfer.unpacklimit
	uploadarchive.allowunreachable
	uploadpack.allowanysha1inwant uploadpack.allowfilter uploadpack.allowreachablesha1inwant
	uploadpack.allowrefinwant uploadpack.allowtipsha1inwant uploadpack.hiderefs uploadpack.keepalive
	uploadpack.packobjectshook
	uploadpackfilter.allow uploadpackfilter.*.allow uploadpackfilter.tree.maxdepth
	user.email user.name user.signingkey user.useconfigonly
	versionsort.prereleasesuffix versionsort.suffix
	web.browser
	worktree.guessremote worktree.userelativepaths
`))
})

// bySection indexes patterns by their section.
func bySection(patterns []string) map[string][]string {
	index := map[string][]string{}
	for _, p := range patterns {
		section, _, _ := strings.Cut(p, ".")
		index[section] = append(index[section], p)
	}
	return index
}

// knownKey reports whether the guard knows what a repository's key does: a
// rule neutralises it, or it is harmless.
func knownKey(key string) bool {
	if _, ok := ruleFor(key); ok {
		return true
	}
	section, sub, hasSub, variable := splitKey(key)
	for _, p := range harmlessKeys()[section] {
		if patternMatches(p, section, sub, hasSub, variable) {
			return true
		}
	}
	return false
}

// unknownKeys returns the keys the repositories' own configuration sets that
// the guard does not know, each once, in the order met.
func unknownKeys(listings [][]configEntry) []string {
	var keys []string
	seen := map[string]bool{}
	for _, listing := range listings {
		for _, e := range listing {
			if !e.fromUser() && !seen[e.key] && !knownKey(e.key) {
				seen[e.key] = true
				keys = append(keys, e.key)
			}
		}
	}
	return keys
}
