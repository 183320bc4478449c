"""The echo-server secrets test: a server echoes the API key and the URL password back in
every encoding (see :mod:`biasbench.testing.echo_secrets`); prints, per scenario, how many
forms of the secret biasbench kept (must be 0) and the tally.

Run from a checkout root: ``PYTHONPATH=$PWD python measurements/echo_secrets.py``.
"""

from __future__ import annotations

from biasbench.testing.echo_secrets import echo_secret_leaks


def main() -> None:
    rows = echo_secret_leaks()
    print("| credential | scenario | secret forms kept | what biasbench kept (end) |")
    print("|:---|:---|---:|:---|")
    for row in rows:
        kept = str(row["kept"])[-90:].replace("|", "\\|").replace("\n", " ")
        print(f"| {row['credential']} | {row['scenario']} | {row['leaks']} | {kept} |")
    leaked = sum(1 for r in rows if r["leaks"])
    print(f"\nscenarios: {len(rows)}; leaking: {leaked}")


if __name__ == "__main__":
    main()
