"""Initial schema: tables, seats, games, the action log.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rummy_table",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("bot_pause", sa.Float(), nullable=False),
        sa.Column("time_limit", sa.Float(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_rummy_table_status", "rummy_table", ["status"])
    op.create_table(
        "rummy_seat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("rummy_table.id"), primary_key=True),
        sa.Column("idx", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("away", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_rummy_seat_token_hash", "rummy_seat", ["token_hash"])
    op.create_table(
        "rummy_game",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("rummy_table.id"), primary_key=True),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
    )
    op.create_table(
        "rummy_action",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("rummy_game.table_id"), primary_key=True
        ),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rummy_action")
    op.drop_table("rummy_game")
    op.drop_index("ix_rummy_seat_token_hash", "rummy_seat")
    op.drop_table("rummy_seat")
    op.drop_index("ix_rummy_table_status", "rummy_table")
    op.drop_table("rummy_table")
