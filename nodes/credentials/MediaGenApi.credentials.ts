import type {
  IAuthenticateGeneric,
  Icon,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from 'n8n-workflow';

/**
 * MediaGen API key + base URL. The default base URL is a local reference server (`npm start` in the
 * mediagen repository serves http://localhost:8080/api/v3); change it to your server's address, ending
 * in /api/v3.
 */
export class MediaGenApi implements ICredentialType {
  name = 'mediaGenApi';

  displayName = 'MediaGen API';

  icon: Icon = { light: 'file:mediagen.svg', dark: 'file:mediagen.dark.svg' };

  documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-mediagen';

  properties: INodeProperties[] = [
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description: 'Sent as "Authorization: Bearer <key>" with every request',
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: 'http://localhost:8080/api/v3',
      required: true,
      placeholder: 'https://mediagen.example.com/api/v3',
      description:
        'The API root including the version prefix /api/v3. The default is a MediaGen server on this machine; set your own server or provider URL.',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        Authorization: '=Bearer {{$credentials.apiKey}}',
      },
    },
  };

  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{$credentials.baseUrl}}',
      url: '/models',
      method: 'GET',
    },
  };
}
