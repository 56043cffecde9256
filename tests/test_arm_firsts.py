"""A chunk that one arm of the hybrid search ranks first is read, though the fused order left it past the cap."""

from __future__ import annotations

from store.chunks import ARM_FIRST_AT, ChunkHit, arm_firsts_read


def _hit(i: int, arm_rank: int, score: float) -> ChunkHit:
    return ChunkHit(id=i, accession="a", cik=1, item="1", ordinal=i, is_table=False, text=f"passage {i}",
                    fiscal_year=2024, form="10-K", url="u", period_end=None, score=score, arm_rank=arm_rank)


def test_an_arms_first_choice_past_the_cap_is_moved_among_the_first():
    hits = [_hit(i, arm_rank=i + 2, score=1.0 - i / 100) for i in range(8)] + [_hit(8, arm_rank=1, score=0.5)]
    read = arm_firsts_read(hits, limit=8)
    assert [h.id for h in read][ARM_FIRST_AT] == 8
    assert [h.id for h in read][:ARM_FIRST_AT] == [0, 1, 2, 3, 4]
    assert read[ARM_FIRST_AT].score == hits[ARM_FIRST_AT - 1].score  # it ranks as the hit above it


def test_hits_within_the_cap_or_ranked_lower_by_both_arms_keep_their_order():
    hits = [_hit(i, arm_rank=i + 1, score=1.0 - i / 100) for i in range(10)]
    assert arm_firsts_read(hits, limit=8) == hits
