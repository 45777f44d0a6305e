from django.core.management.base import BaseCommand, CommandError

from console.login_lockout import login_unlock


class Command(BaseCommand):
    help = ("Unlock logins locked after too many failures (README \"Login lockout\"): an account, an address, or "
            "an account at one address. The unlock is recorded in the audit log.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", default="", help="the account to unlock (its failures from every address)")
        parser.add_argument("--ip-address", default="", help="the address to unlock (its failures for every account)")

    def handle(self, *args, username: str, ip_address: str, **options) -> None:
        if not username and not ip_address:
            raise CommandError("name the account (--username) or the address (--ip-address) to unlock")
        command = "manage.py unlock_login " + " ".join(
            part for part in (f"--username {username}" if username else "",
                              f"--ip-address {ip_address}" if ip_address else "") if part)
        cleared = login_unlock(username=username, ip_address=ip_address, actor_label=command[:150])
        if cleared:
            self.stdout.write(f"unlocked: {cleared} failure record(s) cleared")
        else:
            self.stdout.write("nothing to unlock: no failed logins are recorded for that")
