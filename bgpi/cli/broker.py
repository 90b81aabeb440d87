"""The broker options of `bgpi run --remote` and `bgpi team`: one set, read one way.

`add_broker_options` adds ``--broker HOST[:PORT]``, ``--broker-user``,
``--broker-password-file``, ``--broker-tls`` and ``--broker-ca``; `broker_of` checks them
(over a settings file's, for `bgpi run`) into a `bgpi.remote.mqtt.Broker` whose password
can be read, or raises UsageError naming the option.  The password is read from a file
or from $BGPI_BROKER_PASSWORD, never taken on the command line.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.cli.settings import RemoteFile
from bgpi.exc import BrokerSetupError, UsageError

if TYPE_CHECKING:
    from bgpi.remote.mqtt import Broker

PASSWORD_ENV = "BGPI_BROKER_PASSWORD"  # bgpi.remote.mqtt's: not imported here, which would load paho


def add_broker_options(parser: argparse.ArgumentParser, required: bool = False, what: str = "the") -> None:
    parser.add_argument("--broker", metavar="HOST[:PORT]", required=required,
                        help=f"{what} MQTT broker (port default 1883, 8883 with --broker-tls)")
    parser.add_argument("--broker-user", metavar="U", help="the user name the broker asks for")
    parser.add_argument("--broker-password-file", metavar="F", type=Path,
                        help=f"a file holding the broker password (else ${PASSWORD_ENV}; never on the command line)")
    parser.add_argument("--broker-tls", action="store_true", default=None, help="talk to the broker over TLS")
    parser.add_argument("--broker-ca", metavar="FILE", type=Path,
                        help="with --broker-tls: the CA certificate to trust (default: the system's)")


def broker_of(args: argparse.Namespace, file: RemoteFile | None = None) -> Broker:
    """The broker the options name (each over the settings file's [remote] `file`: broker,
    user, password_file, tls, ca), its password file readable; UsageError for a fault."""
    from bgpi.remote.mqtt import Broker

    file = file or RemoteFile()
    address: str | None = args.broker or file.broker
    if not address:
        raise UsageError("--broker HOST[:PORT]: the MQTT broker is needed")
    tls: bool = args.broker_tls if args.broker_tls is not None else bool(file.tls)
    ca: Path | None = args.broker_ca or file.ca
    password_file: Path | None = args.broker_password_file or file.password_file
    host, port = parse_address(address)
    if ca is not None and not tls:
        raise UsageError("--broker-ca is for --broker-tls")
    if ca is not None and not ca.is_file():
        raise UsageError(f"--broker-ca {ca}: no such file")
    broker = Broker(host, port, args.broker_user or file.user, password_file, tls, ca)
    try:
        broker.password()
    except BrokerSetupError as error:
        raise UsageError(str(error)) from None
    return broker


def parse_address(text: str) -> tuple[str, int | None]:
    """``HOST`` or ``HOST:PORT`` (an IPv6 address without a port); UsageError otherwise."""
    host, _, port_text = text.rpartition(":") if text.count(":") == 1 else (text, "", "")
    if not host or any(char.isspace() for char in host):
        raise UsageError(f"--broker {text!r}: expected HOST or HOST:PORT")
    if not port_text:
        return host, None
    try:
        port = int(port_text)
    except ValueError:
        raise UsageError(f"--broker {text!r}: the port must be a number") from None
    if not 1 <= port <= 65535:
        raise UsageError(f"--broker {text!r}: a port is 1 to 65535")
    return host, port
