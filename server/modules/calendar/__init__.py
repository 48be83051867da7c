"""The municipality's own days without office hours (religious holidays under Lei 9.093/1995
art. 2º, a Carnival or Corpus Christi it decreed, office closures), entered by the back office
with the act that sets each, read by the legal calendar (server/rules/legal_calendar.py) on the
server and sent in the field data so the phone counts the same days."""
