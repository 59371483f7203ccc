package permission

// Persistence: what keeps running after the session, or runs later by
// itself (services, timers, cron and at jobs, lingering, launch agents),
// is HIGH: that is how a command outlives the approval given to it.

// systemctlStarts are systemctl verbs that enable, start or change units.
var systemctlStarts = set("enable", "start", "restart", "reload", "try-restart", "reload-or-restart",
	"try-reload-or-restart", "link", "edit", "daemon-reload", "daemon-reexec", "set-environment",
	"import-environment", "preset", "preset-all", "reenable", "add-wants", "add-requires", "revert", "mask",
	"unmask", "set-default", "isolate", "set-property", "bind", "mount-image")

// persistence rates service managers, schedulers and lingering.
func (a *assessor) persistence(prog string, rest []arg) {
	sub := subcommand(prog, rest)
	switch prog {
	case "systemctl":
		if systemctlStarts[sub] {
			who := "system"
			if hasOption(rest, "--user", "--global") {
				who = "user"
			}
			a.flag(High, "systemctl "+sub+" enables or starts "+who+" services that outlive the session")
		}
	case "systemd-run":
		a.flag(High, "systemd-run starts a unit that outlives the session")
	case "loginctl":
		if sub == "enable-linger" {
			a.flag(High, "loginctl enable-linger keeps user services running after logout")
		}
	case "launchctl":
		switch sub {
		case "load", "bootstrap", "enable", "submit", "kickstart", "setenv", "asuser":
			a.flag(High, "launchctl "+sub+" starts agents that outlive the session")
		}
	case "crontab":
		onlyList := hasOption(rest, "-l")
		for i, x := range rest {
			user := i > 0 && rest[i-1].text == "-u" && x.text != "-"
			onlyList = onlyList && (x.text == "-l" || x.text == "-u" || user)
		}
		switch {
		case hasOption(rest, "-r"):
			a.flag(High, "crontab -r removes every cron job")
		case !onlyList:
			a.flag(High, "crontab installs jobs that run code later")
		}
	case "at", "batch":
		if !hasOption(rest, "-l", "-d", "-r", "-c") {
			a.flag(High, prog+" schedules commands to run later")
		}
	case "update-rc.d", "chkconfig", "rc-update", "rc-service":
		a.flag(High, prog+" installs a boot-time service")
	}
}
