"""Personal data under the LGPD (Lei 13.709/2018): retention and anonymisation, the holder's export and rectification requests."""
