"""Flask CLI commands: one click group per feature, registered in one place."""


def register_cli(app):
    from .modules.demo.cli import demo_cli
    from .modules.permits.cli import registry_cli
    from .modules.rules.cli import rules_cli

    for command in (demo_cli, registry_cli, rules_cli):
        app.cli.add_command(command)
    from .modules.credentials.cli import credentials_cli, keys_cli
    for command in (keys_cli, credentials_cli):
        app.cli.add_command(command)
    from .modules.operator_portal.cli import operator_cli
    app.cli.add_command(operator_cli)
    from .modules.fieldsync.cli import fieldsync_cli; app.cli.add_command(fieldsync_cli)  # noqa: E702
    from .modules.jobs.cli import jobs_cli; app.cli.add_command(jobs_cli)  # noqa: E702
    from .modules.onboarding.cli import municipality_cli, users_cli; app.cli.add_command(municipality_cli); app.cli.add_command(users_cli)  # noqa: E702
    from .modules.registry_import.cli import registry_import_cli, worker_command; app.cli.add_command(registry_import_cli)  # noqa: E702
    jobs_cli.add_command(worker_command)  # `flask jobs worker`: jobs sits below registry_import (.importlinter)
    from .modules.backup.cli import backup_cli; app.cli.add_command(backup_cli)  # noqa: E702
    from .modules.backup.storage_cli import storage_cli; app.cli.add_command(storage_cli)  # noqa: E702
    from .modules.lgpd.cli import lgpd_cli; app.cli.add_command(lgpd_cli)  # noqa: E702
    from .modules.tenancy.cli import tenancy_cli; app.cli.add_command(tenancy_cli)  # noqa: E702
    from .modules.notices.cli import notices_cli; app.cli.add_command(notices_cli)  # noqa: E702
    from .core.tenancy import cross_on_command_line; cross_on_command_line(app.cli, "command line: the server's operator")  # noqa: E702
    from .cli_expects import explain_missing_parameters; explain_missing_parameters(app.cli)  # noqa: E702
    from .core.transaction import commit_each_command; commit_each_command(app.cli)  # outermost: one unit per command  # noqa: E702
