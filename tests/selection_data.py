"""Helpers for the selection tests: valid CPFs and the back-office posts of an edital."""
import re

from helpers import csrf_token
from server.core.validation import cpf_check_digits
from server.core.clock import local_today

NOW = local_today()  # the municipality's day, as the product counts it


def cpf(n):
    return cpf_check_digits(f"{381200000 + n:09d}")


ALL_CONDITIONS = ["art7_i", "art7_ii_categoria", "art7_iii", "art7_iv", "art7_v", "art7_vi", "art7_vii",
                  "art7_viii", "art8"]


def post_population(client, population, reference, source="IBGE, estimativa populacional"):
    return client.post("/bo/selecao/", data={"population": str(population), "reference_date": reference,
                                             "source": source, "csrf_token": csrf_token(client, "/bo/selecao/")})


def create_edital(client, vacancies, extra="", number="001/2026", published_on="2026-01-05"):
    token = csrf_token(client, "/bo/selecao/editais/novo")
    response = client.post("/bo/selecao/editais/novo", data={
        "number": number, "published_on": published_on, "registration_until": "2026-02-05",
        "vacancies_offered": str(vacancies), "extra_criteria_text": extra, "csrf_token": token})
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    return int(re.search(r"/editais/(\d+)", response.headers["Location"]).group(1))


def register(client, edital_id, n, name, profession_since, cnh="2010-01-01", vehicle_year="2022",
             schooling="4", conditions=ALL_CONDITIONS, **extra):
    path = f"/bo/selecao/editais/{edital_id}/candidatos/novo"
    data = {"name": name, "cpf": cpf(n), "profession_since": profession_since, "cnh_first_issue_date": cnh,
            "vehicle_year": vehicle_year, "schooling": schooling, "csrf_token": csrf_token(client, path)}
    data.update({key: "1" for key in conditions})
    data.update(extra)
    response = client.post(path, data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    return response
