"""Alembic environment: migrations run on the connection the server hands over.

The server calls :meth:`openrummy.server.store.Store.migrate`, which runs ``upgrade head`` on
its own (async) engine's connection; there is no ``alembic.ini``. Importing this module
outside a migration (doctest collection, say) does nothing.
"""

from __future__ import annotations

from alembic import context

from openrummy.server.store import metadata


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError(
            "run the server's migrations through openrummy.server.store.Store.migrate()"
        )
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "_proxy", None) is not None:  # inside an Alembic command
    run_migrations()
