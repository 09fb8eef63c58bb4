"""Alembic environment: the Flask app's engine and the models' metadata."""

from alembic import context
from flask import current_app

config = context.config
db = current_app.extensions["migrate"].db
target_metadata = db.metadata


def run_migrations_offline() -> None:
    context.configure(
        url=str(db.engine.url).replace("%", "%%"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = db.engine
    with connectable.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=True,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
