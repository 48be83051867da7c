"""Communications to the traffic authority (comunicação ao órgão executivo de trânsito): the CTB/SNT
infractions a municipal fiscal observed at a stop, which the municipal auto never states (issue
34, item 2; CTB art. 24: only a body of the SNT applies them), each with its own number, listed per
period as a PDF and a CSV, and the sending and acknowledgement the back office records."""
