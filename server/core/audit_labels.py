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
}

ENTITY_LABELS = {
    "permit": "Permissão",
    "operator": "Operador",
    "vehicle": "Veículo",
    "company": "Empresa",
    "ponto": "Ponto",
    "unit_value": "Unidade fiscal",
    "user": "Usuário",
    "device": "Celular",
    "credential": "Crachá",
    "issuer_key": "Chave de assinatura",
    "municipality": "Município",
}


def action_label(code):
    """The pt-BR label of an audit action code (the code itself only if one was never mapped)."""
    return ACTION_LABELS.get(code, code)


def entity_label(code):
    return ENTITY_LABELS.get(code, code)
