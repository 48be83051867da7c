"""The municipal registry: municipalities, companies, operators, vehicles, pontos and permits."""
