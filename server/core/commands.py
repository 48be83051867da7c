"""What every `flask …` command is wrapped in, walked once over the CLI's groups: the municipality
crossing of the command line (core/tenancy.cross_on_command_line) and the transaction boundary
(core/transaction.commit_each_command). Both wrap a command's callback the same way, so the walk and
the app context the wrapper needs live here."""
import contextlib
import functools

import click
from flask import has_app_context
from flask.cli import NoAppException, ScriptInfo


def wrap_each_command(group, wrap, marker):
    """Replaces the callback of every command of `group` (and of its subgroups) with
    `wrap(callback)`, which sets the attribute `marker` on what it returns: a callback that already
    has it (wrapped before, or declared by its command) is left as it is."""
    for command in group.commands.values():
        if isinstance(command, click.Group):
            wrap_each_command(command, wrap, marker)
        elif command.callback is not None and not getattr(command.callback, marker, None):
            command.callback = wrap(command.callback)


def marked_wrapper(callback, wrapped, marker, value):
    """`wrapped` made to look like `callback` (name, help, attributes), with `marker` set."""
    wrapped = functools.update_wrapper(wrapped, callback)
    setattr(wrapped, marker, value)
    return wrapped


def command_app_context(ctx):
    """The app context a command's wrapper enters: none when one is already pushed (an outer
    wrapper's, or a test's), else the app's own, held by the caller's frame as
    flask.cli.with_appcontext does, but not left to the click context's resources, which
    `ctx.exit()` closes before the caller's code after the command runs. None when the command needs
    no app (`rules check --root` without one): no database, nothing to wrap."""
    if has_app_context():
        return contextlib.nullcontext()
    try:
        return ctx.ensure_object(ScriptInfo).load_app().app_context()
    except NoAppException:
        return None
