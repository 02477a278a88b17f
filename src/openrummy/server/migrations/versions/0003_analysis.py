"""Stored game analyses (the web replay's Analyse button).

Revision ID: 0003_analysis
Revises: 0002_puzzles
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_analysis"
down_revision = "0002_puzzles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rummy_analysis",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("rummy_game.table_id"), primary_key=True
        ),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rummy_analysis")
