"""Public selection of moto-taxistas and the vacancies it fills (Paranatinga Lei 311/2007)."""
