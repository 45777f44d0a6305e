"""GET /api/v1/search: hit testing over approved sources within the client's clearance (a Router of the API
assembled in config/api.py)."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from console.api import Text, errors_documented
from kb.search import chunks_search

router = Router(tags=["search"])


class SearchHitOut(Schema):
    chunk_id: int
    document_key: str
    title: str
    version: int
    owner: str = Field(description="the username of the document's owner")
    heading: str
    text: str
    char_start: int
    char_end: int
    score: float


class SearchOut(Schema):
    results: list[SearchHitOut]
    warnings: list[str] = []


# The operation id it had when review's module served it: clients generated from the OpenAPI document name it so.
@router.get("/search", response={200: SearchOut, **errors_documented(400, 401, 403, 404, 409, 411, 413, 429, 503)},
            summary="Hit testing over approved sources", operation_id="review_api_search")
def search(request: HttpRequest, q: Text = Query(..., min_length=1, max_length=1000),
           k: int = Query(5, ge=1, le=50)):
    result = chunks_search(query=q, clearance=request.auth.clearance, k=k)
    return {"results": [{
        "chunk_id": hit.chunk.pk, "document_key": hit.chunk.version.document.key,
        "title": hit.chunk.version.document.title, "version": hit.chunk.version.number,
        "owner": hit.chunk.version.document.owner.username, "heading": hit.chunk.heading_path, "text": hit.chunk.text,
        "char_start": hit.chunk.char_start, "char_end": hit.chunk.char_end, "score": round(hit.score, 6),
    } for hit in result.hits], "warnings": result.warnings}
