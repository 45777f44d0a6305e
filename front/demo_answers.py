"""Demo answers posted through the real HTTP API once `make run`'s web server is up, so the queue has real items."""

from __future__ import annotations

import logging

import httpx

from review.models import ApiClient
from review.services import api_client_create

logger = logging.getLogger(__name__)

DEMO_CLIENT = "demo-assistant"
DEMO_ANSWERS = [
    # Quoted nearly word for word and long enough to clear the shipped release threshold: released at once.
    {"external_id": "demo-booking-agency", "question": "How do I book flights and hotels?",
     "answer": "All flights, hotels and rental cars must be booked through the company's travel agency, "
               "SkyBridge Travel, either on its website or through its 24-hour phone line."},
    {"external_id": "demo-supported", "question": "What is the nightly hotel cap in New York?",
     "answer": "The nightly hotel cap in New York is $325. Stays above the cap need approval from a "
               "department director before booking."},
    {"external_id": "demo-number-swap", "question": "What is the per diem for meals?",
     "answer": "The domestic per diem is $75 per day and the international per diem is $95 per day."},
    {"external_id": "demo-unverifiable", "question": "Can I bring my dog on business trips?",
     "answer": "Pets may travel with employees on business trips if they weigh under 10 kilograms."},
    {"external_id": "demo-high-risk-topic", "question": "Can I get a refund on my annual plan?",
     "answer": "Monthly subscriptions can be refunded within 14 days of the charge."},
    {"external_id": "demo-booking", "question": "How early must I book international trips?",
     "answer": "International trips must be booked at least 21 days before departure. "
               "Domestic trips must be booked at least 10 days before departure."},
    # The same facts again, as assistants repeat themselves: the queue shows the two as one group to decide once.
    {"external_id": "demo-booking-repeat", "question": "When do I have to book a trip abroad?",
     "answer": "International trips must be booked at least 21 days before departure. "
               "Domestic trips must be booked at least 10 days before departure."},
    {"external_id": "demo-mileage", "question": "What is the mileage rate?",
     "answer": "Employees who drive their own car on company business are reimbursed at $0.62 per mile."},
]


def post_demo_answers(*, base_url: str) -> int:
    """Post the demo answers unless the demo client exists already (first run only). Returns how many were sent."""
    if ApiClient.objects.filter(name=DEMO_CLIENT).exists():
        return 0
    _, token = api_client_create(name=DEMO_CLIENT, clearance="internal")
    sent = 0
    with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=10) as client:
        for answer in DEMO_ANSWERS:
            response = client.post("/api/v1/answers", json=answer,
                                   headers={"Idempotency-Key": answer["external_id"]})
            if response.status_code == 202:
                sent += 1
            else:
                logger.warning("demo answer %s refused: %s %s", answer["external_id"], response.status_code,
                               response.text[:200])
    return sent
