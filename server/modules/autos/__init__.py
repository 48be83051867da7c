"""The administrative case of each auto de infração received from the field: its review
(homologado / insubsistente), and — built on it — notification, defence, appeal, penalties."""
