"""Issuing and renewing permits by the law: requirement gates, validity computed from the law,
vistorias, insurance policies, document checks and Nortelândia's monthly ISSQN."""
