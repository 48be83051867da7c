"""Server-rendered back office (pt-BR): dashboard, registry screens, permit actions."""
