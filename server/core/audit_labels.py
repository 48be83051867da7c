"""pt-BR names of the audit log's action codes and audited records: the one mapping every screen
uses (audit log, permit history). Every code passed to core.audit.record() anywhere in server/
must have a label here; tests/test_backoffice_audit_labels.py collects them from the source."""

ACTION_LABELS = {
    # Registry records (registry.operations.save_entity, add_unit_value, photos)
    "create": "Cadastro",
    "update": "Alteração",
    "view": "Consulta do cadastro completo (CPF)",
    "photo": "Foto do operador enviada",
    # Permit lifecycle (registry.operations.TRANSITIONS and issue_permit)
    "issue": "Emissão",
    "renew": "Renovação",
    "suspend": "Suspensão",
    "reinstate": "Fim da suspensão",
    "cassar": "Cassação",
    "extinguish": "Extinção",
    "expire": "Vencimento",
    "lapse": "Caducidade",
    "expire_suspend": "Suspensão por falta de renovação",
    "validity_exception": "Validade diferente da lei (exceção)",
    # Issuance records (issuance.operations)
    "pay": "Pagamento registrado",
    "configure_vistoria": "Validade da vistoria configurada",
    "configure_renewal_documents": "Documentos exigidos na renovação configurados",
    # Crachás and the municipality's signing keys (credentials.operations)
    "credential_issue": "Crachá emitido",
    "credential_supersede": "Crachá substituído por nova via",
    "credential_revoke": "Crachá revogado",
    "key_create": "Chave de assinatura criada",
    "key_retire": "Chave de assinatura substituída",
    "key_revoke": "Chave de assinatura revogada",
    # Operator access to the field app (operator_portal.operations)
    "first_access_code_issued": "Código de primeiro acesso gerado",
    "operator_activated": "Operador ativou o aplicativo",
    # Users, devices and sessions (accounts)
    "login": "Entrada no back office",
    "logout": "Saída do back office",
    "reset_password": "Senha redefinida",
    "activate": "Usuário reativado",
    "deactivate": "Usuário desativado",
    "enroll": "Celular registrado",
    "revoke": "Celular revogado",
    "token_issued": "Acesso ao aplicativo concedido",
    "token_revoked": "Acesso ao aplicativo encerrado",
    # Rules (rules.settings)
    "configure_rules": "Configuração das regras alterada",
    # Field sync (fieldsync.operations)
    "register_key": "Chave de assinatura do celular registrada",
    "reserve_numbers": "Números de auto reservados para o celular",
    "void_number": "Número de auto inutilizado",
    "sync_accept": "Registros de campo recebidos",
    "sync_conflict": "Registro de campo divergente recebido (conflito)",
    "sync_reject": "Registro de campo recusado pelo conteúdo (em quarentena)",
    "upload_photo": "Foto de evidência recebida",
    # Autos de infração (autos.operations)
    "auto_homologate": "Auto homologado",
    "auto_void": "Auto declarado insubsistente",
    # Review (review.operations)
    "auto_correct": "Auto corrigido (nova versão)",
    "cancel_request_accept": "Pedido de cancelamento aceito",
    "cancel_request_refuse": "Pedido de cancelamento recusado",
    "conflict_resolve": "Conflito de registro resolvido",
    # Changes during a permit's life (registry.changes_of_life)
    "substitute_vehicle": "Substituição de veículo",
    "transfer": "Transferência a herdeiro",
    "substitution_vistoria": "Vistoria do veículo substituto",
    # Public selection and suplentes (selection.operations; Paranatinga Lei 311/2007)
    "register_candidate": "Candidato inscrito no edital",
    "tie_break": "Desempate registrado",
    "publish_classification": "Classificação publicada",
    "call_suplente": "Suplente convocado",
    "grant_regularization": "Prazo de regularização concedido",
    "regularize": "Regularização registrada",
    "present_motorcycle": "Motocicleta apresentada",
    "disable_candidate": "Suplente desabilitado",
    "forfeit_candidate": "Direito à vaga perdido",
    "candidate_withdraw": "Desistência do candidato",
    "grant_permit": "Permissão emitida ao candidato",
    # Notification, defence, appeals, penalties (autos.process_operations, autos.jobs)
    "auto_notification_issue": "Notificação de autuação emitida",
    "auto_service": "Ciência do autuado registrada",
    "auto_appeal_file": "Defesa ou recurso protocolado",
    "auto_appeal_decide": "Defesa ou recurso decidido",
    "penalty_state": "Situação da penalidade alterada",
    "penalty_record_cancel": "Registro de punição cancelado (período sem infração)",
    "auto_payment": "Pagamento registrado",
    "seizure": "Apreensão ou remoção registrada",
    "seizure_release": "Moto liberada",
    "seizure_fee_payment": "Pagamento de taxa de remoção ou pátio registrado",
    "autos_settings": "Configuração do processo de autos alterada",
}

ENTITY_LABELS = {
    "permit": "Permissão",
    "operator": "Operador",
    "vehicle": "Veículo",
    "company": "Empresa",
    "ponto": "Ponto",
    "unit_value": "Unidade fiscal",
    "vistoria": "Vistoria",
    "insurance_policy": "Apólice de seguro",
    "document_check": "Conferência de documento",
    "issqn_charge": "Cobrança de ISSQN",
    "user": "Usuário",
    "device": "Celular",
    "credential": "Crachá",
    "issuer_key": "Chave de assinatura",
    "municipality": "Município",
    "field_record": "Registro de campo",
    "auto_number_block": "Bloco de números de auto",
    "auto_number": "Número de auto",
    "evidence_photo": "Foto de evidência",
    "auto_case": "Auto de infração",
    "field_record_conflict": "Conflito de registro de campo",
    "population_figure": "População do município",
    "vehicle_substitution": "Substituição de veículo",
    "tariff_table": "Tabela de tarifas",
    "edital": "Edital de seleção",
    "candidate": "Candidato",
    "auto_notification": "Notificação de autuação",
    "auto_appeal": "Defesa ou recurso",
    "auto_penalty": "Penalidade",
    "auto_payment": "Pagamento",
    "seizure": "Apreensão ou remoção",
    "seizure_fee_payment": "Pagamento de taxa de apreensão",
}


def action_label(code):
    """The pt-BR label of an audit action code (the code itself only if one was never mapped)."""
    return ACTION_LABELS.get(code, code)


def entity_label(code):
    return ENTITY_LABELS.get(code, code)


# Names of the fields shown in an audit entry's "Alterações" (the before/after snapshots).
FIELD_LABELS = {
    "number": "Número", "kind": "Instrumento", "holder_operator_id": "Titular (operador)",
    "holder_company_id": "Titular (empresa)", "vehicle_id": "Veículo", "ponto_id": "Ponto",
    "driver_ids": "Condutores", "issued_on": "Emissão", "valid_from": "Início da validade",
    "valid_until": "Validade", "status": "Situação", "status_changed_at": "Situação alterada em",
    "suspended_until": "Suspensão até", "insurance_policy": "Apólice de seguro",
    "taxpayer_number": "Inscrição municipal do contribuinte",
    "insurance_expiry": "Validade do seguro", "last_vistoria_date": "Última vistoria", "issqn_status": "ISSQN",
    "notes": "Observações", "name": "Nome", "cpf": "CPF", "cnh_number": "Nº da CNH",
    "cnh_category": "Categoria da CNH", "cnh_first_issue_date": "Primeira habilitação",
    "cnh_expiry": "Validade da CNH", "birth_date": "Nascimento", "blood_type": "Tipo sanguíneo",
    "photo_path": "Foto", "address": "Endereço", "residence_since": "Reside desde", "phone": "Telefone",
    "company_id": "Empresa", "plate": "Placa", "renavam": "RENAVAM", "chassis": "Chassi", "make": "Marca",
    "model": "Modelo", "year_manufacture": "Ano de fabricação", "engine_cc": "Cilindrada",
    "plate_category": "Categoria da placa", "plate_colour": "Cor da placa", "legal_name": "Razão social",
    "trade_name": "Nome fantasia", "cnpj": "CNPJ", "location": "Localização", "latitude": "Latitude",
    "longitude": "Longitude", "capacity": "Capacidade", "legal_basis": "Base legal", "unit": "Unidade",
    "value_brl": "Valor (R$)", "source": "Ato", "username": "Usuário", "role": "Perfil",
    "operator_id": "Operador", "registration": "Matrícula", "active": "Ativo",
    "last_login_at": "Última entrada", "user": "Usuário", "user_id": "Usuário",
    "public_key": "Chave pública", "kid": "Identificador da chave", "serial": "Série", "permit_id": "Permissão",
    "issuer_key_id": "Chave de assinatura", "permit_number": "Número", "issued_at": "Emitido em",
    "expires_on": "Válido até", "revoked_reason": "Motivo da revogação", "revoked_at": "Revogado em",
    "superseded_by_id": "Substituído por", "retired_at": "Substituída em", "registered_at": "Registrado em",
    "last_seen_at": "Último contato",
    "population": "População", "reference_date": "Data de referência", "published_on": "Publicado em",
    "registration_until": "Inscrições até", "vacancies_offered": "Vagas oferecidas",
    "extra_criteria": "Critérios do edital", "classification_published_at": "Classificação publicada em",
    "edital_id": "Edital", "profession_since": "Na profissão desde", "vehicle_year": "Ano da motocicleta",
    "schooling": "Escolaridade", "extra_values": "Critérios do edital (valores)", "conditions": "Condições legais",
    "tie_break": "Posição no desempate", "tie_break_reason": "Motivo do desempate",
    "classification": "Classificação", "called_on": "Convocado em", "regularize_until": "Regularizar até",
    "selected_on": "Selecionado em", "old_vehicle_id": "Veículo anterior", "new_vehicle_id": "Novo veículo",
    "act": "Ato", "replaced_on": "Troca em", "requested_on": "Pedido em", "vistoria_required": "Vistoria exigida",
    "vistoria_done_on": "Vistoria em", "basis": "Base legal", "reason": "Motivo", "motorcycle_due": "Motocicleta até", "status_reason": "Motivo da situação",
    "vistoria_id": "Vistoria",
    "content_hash": "Resumo do conteúdo", "served_via": "Forma da ciência", "served_on": "Data da ciência",
    "note": "Observação", "level": "Instância", "filed_on": "Protocolado em", "due_on": "Prazo até",
    "late": "Intempestivo", "suspensive": "Efeito suspensivo", "decision": "Decisão",
    "decided_on": "Decidido em", "infraction_id": "Infração", "guia": "Guia", "paid_on": "Pago em",
    "amount_cents": "Valor (centavos)", "seized_on": "Data da medida", "released_on": "Liberada em",
    "alvara": "Alvará exibido", "payment_id": "Pagamento", "state": "Situação",
    "authority_pt": "Autoridade julgadora", "edital_basis_pt": "Ato que autoriza edital",
    "removal_fee_cents": "Taxa de remoção (centavos)", "storage_fee_daily_cents": "Diária do pátio (centavos)",
    "removal_fee_act": "Ato da taxa de remoção", "storage_fee_act": "Ato da diária do pátio",
    "storage_day_count": "Contagem das diárias", "release_requires_fees": "Taxas exigidas para liberar",
    "charges": "Taxas cobradas", "charge": "Taxa", "seizure_id": "Apreensão",
    "fees_due_cents": "Taxas devidas (centavos)", "fees_paid_cents": "Taxas pagas (centavos)",
    "inspected_on": "Data da vistoria", "result": "Resultado", "items": "Itens",
    "items_to_fix": "Itens a corrigir", "return_on": "Retorno", "inspector_name": "Vistoriador",
    "photo_hashes": "Fotos", "recorded_by_id": "Registrado por", "insurer": "Seguradora",
    "policy_number": "Nº da apólice", "starts_on": "Início da vigência", "ends_on": "Fim da vigência",
    "cover_temporary_disability": "Invalidez temporária (R$)", "cover_permanent_disability": "Invalidez permanente (R$)",
    "cover_death": "Morte (R$)", "cover_medical": "Despesas médicas (R$)",
    "cover_personal_accidents": "Acidentes pessoais", "coverage_attested": "Coberturas conferidas",
    "copy_filed": "Cópia arquivada", "subject": "Registro", "subject_id": "Registro nº", "fact": "Requisito",
    "value": "Resposta", "checked_on": "Conferido em", "month": "Mês", "motorcycles": "Motos em atividade",
    "ufm": "UFM", "amount_brl": "Valor (R$)",
    "paid_amount_brl": "Valor pago (R$)", "payment_reference": "Guia de pagamento",
    "vistoria_validity_months": "Validade da vistoria (meses)", "vistoria_validity_source": "Ato da validade da vistoria",
}


def field_label(key):
    return FIELD_LABELS.get(key, key)
