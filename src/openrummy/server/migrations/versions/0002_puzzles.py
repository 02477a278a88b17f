"""Puzzles: players, the puzzles' current ratings, one rated attempt per player and puzzle.

Revision ID: 0002_puzzles
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_puzzles"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rummy_puzzle_player",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "rummy_puzzle_rating",
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
    )
    op.create_table(
        "rummy_puzzle_attempt",
        sa.Column(
            "player_id", sa.String(64), sa.ForeignKey("rummy_puzzle_player.id"), primary_key=True
        ),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("hinted", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("rummy_puzzle_attempt")
    op.drop_table("rummy_puzzle_rating")
    op.drop_table("rummy_puzzle_player")
