"""The integrity flags the sync server puts on a record (docs/sync-api.md), explained in pt-BR
for the reviewer: what was found and what it means for the auto's value as evidence."""

FLAGS = {
    "bad_signature": ("Assinatura inválida",
                      "A assinatura digital não confere com o corpo recebido: o registro pode ter sido "
                      "alterado depois de assinado no celular. Não homologue sem verificar a origem."),
    "no_device_key": ("Celular sem chave",
                      "O celular não tinha chave de assinatura registrada: a autoria não pode ser verificada."),
    "device_mismatch": ("Outro celular",
                        "O corpo diz ter sido feito por outro celular que não o que o enviou."),
    "broken_chain": ("Cadeia quebrada",
                     "O registro não aponta para o anterior deste celular (hash diferente): um registro "
                     "pode ter sido apagado ou substituído no aparelho."),
    "chain_gap": ("Falta registro anterior",
                  "O registro anterior deste celular ainda não chegou ao servidor (some quando chegar)."),
    "seq_reused": ("Sequência repetida",
                   "Outro registro deste celular usa o mesmo número de sequência."),
    "number_unknown": ("Número desconhecido",
                       "O número do auto não pertence aos blocos reservados para este celular."),
    "number_reused": ("Número repetido", "O número do auto já foi usado por outro auto."),
    "number_voided": ("Número inutilizado", "O número do auto tinha sido inutilizado antes deste uso."),
    "clock_ahead": ("Relógio adiantado",
                    "A hora do celular está à frente da hora do servidor no recebimento: confira a hora "
                    "pelo GPS e pelas fotos."),
    "clock_behind": ("Relógio atrasado",
                     "A hora do celular é anterior ao cadastro do aparelho (relógio zerado?): use a hora do "
                     "GPS ou do recebimento."),
    "clock_drift": ("Relógio diverge do GPS",
                    "A hora do celular difere da hora do GPS além do limite tolerado."),
    "photo_missing": ("Foto faltando",
                      "Fotos citadas no registro (evidências ou assinaturas) ainda não chegaram ao servidor."),
    # Vistorias from the field app (issuance/vistoria_sync.py).
    "vistoria_approval_failed": ("Aprovação contrariada",
                                 "A vistoria foi assinada como aprovada, mas as respostas não atendem a uma "
                                 "exigência da lei: ficou em revisão e não vale como aprovada."),
    "vistoria_vehicle_unknown": ("Moto desconhecida",
                                 "A vistoria cita uma moto que não é deste município: nenhuma vistoria foi "
                                 "registrada a partir dela."),
}

# Filters of the queue, in the order shown (photo_missing is computed, not stored).
FILTERABLE = ("bad_signature", "broken_chain", "chain_gap", "number_unknown", "number_reused",
              "number_voided", "clock_ahead", "clock_behind", "clock_drift", "device_mismatch",
              "photo_missing")


def label(code):
    return FLAGS.get(code, (code, ""))[0]


def explain(code):
    return FLAGS.get(code, (code, "Indicador desconhecido."))


def explained(codes):
    return [(c, *explain(c)) for c in codes]
